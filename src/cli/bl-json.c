/* bl-json.c: a minimal streaming JSON writer.
 *
 * Every value is written straight into the GString's buffer: one check for
 * room, then plain stores, so that the tens of thousands of numbers of a
 * large model cost a formatting each and nothing more. */
#include "config.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bl-json.h"
#include "bl-number.h"

void
bl_json_init (BlJson  *json,
              GString *out,
              FILE    *stream)
{
  json->out = out;
  json->stream = stream;
  json->depth = 0;
  json->need_comma = FALSE;
  json->after_key = FALSE;
  /* bits 0 is +0, which never reaches write_number */
  memset (json->recent, 0, sizeof json->recent);
}

static void
json_open (BlJson *json,
           char    c)
{
  char *p = bl_json_before_value (json, bl_json_reserve (json->out, 2));

  *p++ = c;
  bl_json_commit (json->out, p);
  json->depth++;
  json->need_comma = FALSE;
}

static void
json_close (BlJson *json,
            char    c)
{
  char *p = bl_json_reserve (json->out, 1);

  g_assert (json->depth > 0);
  json->depth--;
  /* the container just closed is a value of its parent */
  json->need_comma = TRUE;
  *p++ = c;
  bl_json_commit (json->out, p);
}

void
bl_json_begin_object (BlJson *json)
{
  json_open (json, '{');
}

void
bl_json_flush (BlJson *json)
{
  if (json->stream != NULL && json->out->len > 0)
    {
      fwrite (json->out->str, 1, json->out->len, json->stream);
      g_string_truncate (json->out, 0);
    }
}

#define FLUSH_AT (1 << 16)

void
bl_json_end_object (BlJson *json)
{
  json_close (json, '}');
  if (G_UNLIKELY (json->out->len >= FLUSH_AT))
    bl_json_flush (json);
}

void
bl_json_begin_array (BlJson *json)
{
  json_open (json, '[');
}

void
bl_json_end_array (BlJson *json)
{
  json_close (json, ']');
}

/* The escape of an ASCII byte JSON does not take as it is: a quote, a
 * backslash or a control character. */
static void
append_escape (GString       *out,
               unsigned char  c)
{
  switch (c)
    {
    case '"':
      g_string_append (out, "\\\"");
      break;
    case '\\':
      g_string_append (out, "\\\\");
      break;
    case '\n':
      g_string_append (out, "\\n");
      break;
    case '\t':
      g_string_append (out, "\\t");
      break;
    case '\r':
      g_string_append (out, "\\r");
      break;
    default:
      g_string_append_printf (out, "\\u%04x", c);
    }
}

#define BYTES(b) (G_GUINT64_CONSTANT (0x0101010101010101) * (b))

/* Which of the eight bytes of `word` (the first in the lowest) are not
 * printable ASCII or are a quote or a backslash, by their high bits: a
 * byte below 0x20 (its subtraction borrows into
 * the high bit where the byte's own is clear), one of 0x80 or more (the
 * high bit), or zero after the XOR with '"' or '\\'.  Exact for the
 * first such byte (a borrow runs only towards the later bytes, which it
 * may flag too: the caller copies the bytes before the first and looks
 * again from there). */
static inline guint64
needs_look (guint64 word)
{
  guint64 quote = word ^ BYTES ('"');
  guint64 backslash = word ^ BYTES ('\\');

  return ((word - BYTES (0x20)) | (quote - BYTES (1)) | (backslash - BYTES (1)) | word) & BYTES (0x80);
}

/* The last 1 to 7 bytes of a string (from s, `left` of them, the
 * string starting at `first`) as a word padded with spaces, made in a
 * register: the eight bytes that end where the string ends, shifted,
 * when the string is that long; one at a time when it is shorter.  (A
 * word assembled in memory a few bytes at a time and read back whole
 * waits for the stores.) */
static inline guint64
load_tail (const unsigned char *s,
           gsize                left,
           const unsigned char *first)
{
  guint64 word = 0;

  if ((gsize) (s - first) >= 8 - left)
    {
      memcpy (&word, s + left - 8, 8);
      word = GUINT64_FROM_LE (word) >> (8 * (8 - left));
    }
  else
    for (gsize i = left; i-- > 0;)
      word = word << 8 | s[i];
  return GUINT64_TO_LE (word | BYTES (' ') << (8 * left));
}

/* Room a string of `length` bytes still to be written takes at most,
 * escapes aside: the bytes, eight more for a whole word stored past its
 * end (sixteen bytes are stored only where as many are left), the
 * closing quote, a suffix and the NUL. */
#define STRING_ROOM(length) ((length) + 12)

/* Writes ["]value["] (length bytes) after the comma of a value (or after
 * nothing, for a key) and `suffix` (0 for none) after the closing quote.
 * With check_utf8, bytes that are not UTF-8 make it write nothing and
 * return FALSE.  Text is copied as it is checked, in one pass, sixteen
 * bytes at a time where the processor has SSE2 (every x86-64), else and
 * at the end eight (the last few in a word padded with spaces, load_tail),
 * up to the first byte other than printable ASCII: a quote, a backslash
 * or a control character is escaped, a character beyond ASCII copied
 * whole, checked as UTF-8 on its own (a string is UTF-8 when each of its
 * characters is), and the words go on from the byte after it. */
static gboolean
append_string (BlJson     *json,
               const char *value,
               gsize       length,
               char        suffix,
               gboolean    check_utf8)
{
  GString *out = json->out;
  gsize start = out->len;
  gboolean need_comma = json->need_comma;
  gboolean after_key = json->after_key;
  char *p = bl_json_before_value (json, bl_json_reserve (out, STRING_ROOM (length)));
  const unsigned char *s = (const unsigned char *) value;
  const unsigned char *end = s + length;

  *p++ = '"';
  while (s < end)
    {
      gsize left = (gsize) (end - s);
      gsize clean;

#ifdef __SSE2__
      if (left >= 16)
        {
          /* sixteen bytes: a quote, a backslash, or below 0x20 as a
           * signed byte (a control character, or 0x80 and more) */
          __m128i v = _mm_loadu_si128 ((const __m128i *) s);
          __m128i look = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('"')),
                                                     _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\\'))),
                                       _mm_cmplt_epi8 (v, _mm_set1_epi8 (0x20)));
          int mask = _mm_movemask_epi8 (look);

          _mm_storeu_si128 ((__m128i *) p, v);
          clean = mask == 0 ? 16 : (gsize) __builtin_ctz ((unsigned) mask);
        }
      else
#endif
        {
          guint64 word, look;

          if (left >= 8)
            memcpy (&word, s, 8);
          else
            word = load_tail (s, left, (const unsigned char *) value);
          look = needs_look (GUINT64_FROM_LE (word));
          memcpy (p, &word, 8);
          clean = look == 0 ? MIN (left, 8) : (gsize) __builtin_ctzll (look) / 8;
        }
      if (clean > 0)
        {
          /* the bytes before the first to look at, copied above */
          p += clean;
          s += clean;
        }
      else if (*s >= 0x80)
        {
          /* the character's bytes as its first says; without the check,
           * a byte at a time, as it is */
          gsize n = !check_utf8 ? 1 : *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 : *s >= 0xc0 ? 2 : 1;

          n = MIN (n, left);
          if (check_utf8 && !g_utf8_validate_len ((const char *) s, n, NULL))
            {
              out->len = start;
              out->str[start] = '\0';
              json->need_comma = need_comma;
              json->after_key = after_key;
              return FALSE;
            }
          memcpy (p, s, n);
          p += n;
          s += n;
        }
      else
        {
          bl_json_commit (out, p);
          append_escape (out, *s++);
          p = bl_json_reserve (out, STRING_ROOM ((gsize) (end - s)));
        }
    }
  *p++ = '"';
  if (suffix != 0)
    *p++ = suffix;
  bl_json_commit (out, p);
  return TRUE;
}

void
bl_json_key_len (BlJson     *json,
                 const char *key,
                 gsize       length)
{
  append_string (json, key, length, ':', FALSE);
  json->after_key = TRUE;
}

void
bl_json_string (BlJson     *json,
                const char *value)
{
  gsize length;

  if (value == NULL)
    {
      bl_json_null (json);
      return;
    }
  length = strlen (value);
  /* JSON is UTF-8: a file name need not be (its bad bytes become U+FFFD) */
  if (G_UNLIKELY (!append_string (json, value, length, 0, TRUE)))
    {
      g_autofree char *valid = g_utf8_make_valid (value, length);

      append_string (json, valid, strlen (valid), 0, FALSE);
    }
}

/* A finite number other than 0 at p (room for BL_DOUBLE_BUF_SIZE bytes),
 * as bl_number_write writes it; returns its end.  A number written a
 * moment ago is copied as it was written: a link's mass comes back three
 * times in its spatial inertia, its volume in its buoyancy and its
 * collision's, a diagonal added mass as its eigenvalues (a fifth of the
 * numbers of the benchmark's links that are not whole, with 16 kept). */
static inline char *
write_number (BlJson *json,
              char   *p,
              double  value)
{
  BlJsonRecentNumber *recent;
  guint64 bits;
  gsize n;

  G_STATIC_ASSERT (sizeof recent->text <= BL_DOUBLE_BUF_SIZE);
  memcpy (&bits, &value, sizeof bits);
  recent = &json->recent[(bits * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 60];
  G_STATIC_ASSERT (BL_JSON_RECENT_NUMBERS == 16);
  if (recent->bits == bits)
    {
      memcpy (p, recent->text, sizeof recent->text);
      return p + recent->length;
    }
  n = bl_number_write (value, p);
  recent->bits = bits;
  recent->length = (guint32) n;
  memcpy (recent->text, p, sizeof recent->text);
  return p + n;
}

static inline void
append_number (BlJson *json,
               double  value)
{
  char *p = bl_json_before_value (json, bl_json_reserve (json->out, 1 + BL_DOUBLE_BUF_SIZE));

  /* + 0.0 turns −0 into 0 */
  if (value == 0.0)
    *p++ = '0';
  else
    p = write_number (json, p, value);
  bl_json_commit (json->out, p);
}

void
bl_json_number (BlJson *json,
                double  value)
{
  if (!isfinite (value))
    {
      bl_json_null (json);
      return;
    }
  append_number (json, value);
}

void
bl_json_int (BlJson *json,
             gint64  value)
{
  char *p = bl_json_before_value (json, bl_json_reserve (json->out, 24));
  char digits[24];
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;
  int n = 0;

  do
    {
      digits[n++] = (char) ('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude > 0);
  if (value < 0)
    *p++ = '-';
  while (n > 0)
    *p++ = digits[--n];
  bl_json_commit (json->out, p);
}

static void
append_literal (BlJson     *json,
                const char *text,
                gsize       length)
{
  char *p = bl_json_before_value (json, bl_json_reserve (json->out, length + 1));

  memcpy (p, text, length);
  bl_json_commit (json->out, p + length);
}

void
bl_json_bool (BlJson   *json,
              gboolean  value)
{
  if (value)
    append_literal (json, "true", 4);
  else
    append_literal (json, "false", 5);
}

void
bl_json_null (BlJson *json)
{
  append_literal (json, "null", 4);
}

/* The array whole, room made once: a zero (nearly half of a link's
 * numbers) is one byte, written here. */
void
bl_json_numbers (BlJson       *json,
                 const double *values,
                 guint         n)
{
  /* the comma, the brackets, and a comma and a number each */
  char *p = bl_json_before_value (json, bl_json_reserve (json->out, 3 + (gsize) n * (1 + BL_DOUBLE_BUF_SIZE)));

  *p++ = '[';
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        *p++ = ',';
      if (values[i] == 0.0)
        *p++ = '0';   /* −0 too */
      else if (isfinite (values[i]))
        p = write_number (json, p, values[i]);
      else
        {
          memcpy (p, "null", 4);
          p += 4;
        }
    }
  *p++ = ']';
  bl_json_commit (json->out, p);
  /* the array is a value of its container */
  json->need_comma = TRUE;
}

void
bl_json_newline (BlJson *json)
{
  char *p = bl_json_reserve (json->out, 1);

  *p++ = '\n';
  bl_json_commit (json->out, p);
}
