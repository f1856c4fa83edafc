/* bl-json.h: a minimal streaming JSON writer for the command line's output. */
#pragma once

#include <stdio.h>
#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* The last numbers written, by their bits (bl-json.c, write_number). */
#define BL_JSON_RECENT_NUMBERS 16

typedef struct
{
  guint64 bits;
  guint32 length;
  char    text[28];   /* the longest shortest form, "-2.2250738585072014e-308", is 24 */
} BlJsonRecentNumber;

typedef struct
{
  GString *out;
  FILE    *stream;       /* where out is written as it fills, or NULL */
  guint    depth;        /* open containers: any number */
  gboolean need_comma;   /* a value was already written in the innermost one
                          * (an enclosing one always has one: the container) */
  gboolean after_key;
  BlJsonRecentNumber recent[BL_JSON_RECENT_NUMBERS];
} BlJson;

/* Writes into out and, when stream is not NULL, from out to stream
 * whenever out holds 64 KiB or more at the end of an object: a large
 * model's JSON is written as it is made instead of held whole.
 * bl_json_flush writes what is left. */
void bl_json_init         (BlJson *json, GString *out, FILE *stream);
void bl_json_flush        (BlJson *json);
void bl_json_begin_object (BlJson *json);
void bl_json_end_object   (BlJson *json);
void bl_json_begin_array  (BlJson *json);
void bl_json_end_array    (BlJson *json);
/* Any key: escaped as a string is (bl_json_string). */
void bl_json_key_len      (BlJson *json, const char *key, gsize length);
/* A key that is a string literal (the empty literals around `key` refuse
 * anything else when compiled) of printable ASCII without a quote or a
 * backslash, as every key the command line writes: copied as it is,
 * without a look at its bytes (a large model's JSON has tens of
 * thousands of keys).  Another key goes through bl_json_key_len. */
#define bl_json_key(json, key) bl_json_key_plain ((json), "" key "", sizeof (key) - 1)
static inline void bl_json_key_plain (BlJson *json, const char *key, gsize length);
/* Any bytes: what is not UTF-8 (a file name's) is written as U+FFFD. */
void bl_json_string       (BlJson *json, const char *value);
/* Shortest round-trip form; non-finite numbers become null. */
void bl_json_number       (BlJson *json, double value);
void bl_json_int          (BlJson *json, gint64 value);
void bl_json_bool         (BlJson *json, gboolean value);
void bl_json_null         (BlJson *json);
void bl_json_numbers      (BlJson *json, const double *values, guint n);
/* A line break before the next value, for readability of long arrays. */
void bl_json_newline      (BlJson *json);

/* What the writer is made of, inline where a key is written: its length
 * known where it is called, a key is a few stores, not a call of its own
 * and one of memcpy (a large model's JSON has a key for every two
 * numbers). */

/* Room for at least n more bytes (and the NUL) at the end of out. */
static inline char *
bl_json_reserve (GString *out,
                 gsize    n)
{
  if (G_UNLIKELY (out->len + n >= out->allocated_len))
    {
      gsize len = out->len;

      g_string_set_size (out, len + n);
      out->len = len;
    }
  return out->str + out->len;
}

/* Ends what was written since bl_json_reserve at end. */
static inline void
bl_json_commit (GString *out,
                char    *end)
{
  out->len = (gsize) (end - out->str);
  *end = '\0';
}

/* Writes the comma a value needs at p; returns where the value goes. */
static inline char *
bl_json_before_value (BlJson *json,
                      char   *p)
{
  if (json->after_key)
    {
      json->after_key = FALSE;
      return p;
    }
  if (json->need_comma)
    *p++ = ',';
  json->need_comma = TRUE;
  return p;
}

static inline void
bl_json_key_plain (BlJson     *json,
                   const char *key,
                   gsize       length)
{
  /* the comma, the quotes and the colon */
  char *p = bl_json_before_value (json, bl_json_reserve (json->out, length + 4));

  *p++ = '"';
  memcpy (p, key, length);
  p += length;
  *p++ = '"';
  *p++ = ':';
  bl_json_commit (json->out, p);
  json->after_key = TRUE;
}

G_END_DECLS
