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
void bl_json_key_plain    (BlJson *json, const char *key, gsize length);
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

G_END_DECLS
