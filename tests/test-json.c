/* test-json.c: the CLI's JSON writer keeps within the room it makes,
 * escapes strings as JSON says, and writes a number the same each time.
 *
 * Each value is written with plain stores after one check for room
 * (bl-json.c's reserve): a write one byte past that room overruns the
 * string's buffer by its NUL when the buffer ends right there, which the
 * sanitizers caught once for a key after a comma.  Here every value is
 * written at every distance from the buffer's end, and the NUL must stay
 * inside it: len < allocated_len after each. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-json.h"

/* A JSON writer with `fill` bytes already in its buffer and a value
 * written, so that the next one takes a comma. */
static void
start (BlJson  *json,
       GString *out,
       gsize    fill)
{
  bl_json_init (json, out, NULL);
  bl_json_begin_array (json);
  bl_json_int (json, 1);
  for (gsize i = 0; i < fill; i++)
    g_string_append_c (out, ' ');
}

static void
assert_within (GString    *out,
               const char *ends_with)
{
  g_assert_cmpuint (out->len, <, out->allocated_len);
  g_assert_cmpuint (strlen (out->str), ==, out->len);
  g_assert_true (g_str_has_suffix (out->str, ends_with));
}

static void
test_room (void)
{
  static const char key[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  static const double values[] = { 0.0, 1.5, -2.25, 1e300 };

  for (gsize fill = 0; fill < 300; fill++)
    {
      for (gsize length = 0; length < sizeof key; length++)
        {
          g_autoptr(GString) out = g_string_sized_new (1);
          g_autofree char *expected = g_strdup_printf (",\"%.*s\":", (int) length, key);
          BlJson json;

          start (&json, out, fill);
          bl_json_key_plain (&json, key, length);
          assert_within (out, expected);
        }
      for (guint n = 0; n <= G_N_ELEMENTS (values); n++)
        {
          g_autoptr(GString) out = g_string_sized_new (1);
          BlJson json;

          start (&json, out, fill);
          bl_json_numbers (&json, values, n);
          assert_within (out, "]");
        }
      {
        g_autoptr(GString) out = g_string_sized_new (1);
        BlJson json;

        start (&json, out, fill);
        bl_json_number (&json, -2.2250738585072014e-308);   /* -DBL_MIN: 17 digits and an exponent of three */
        assert_within (out, ",-2.2250738585072014e-308");
        bl_json_int (&json, G_MININT64);
        assert_within (out, ",-9223372036854775808");
        bl_json_bool (&json, FALSE);
        assert_within (out, ",false");
        bl_json_string (&json, key);
        assert_within (out, "789\"");
        bl_json_begin_object (&json);
        assert_within (out, ",{");
      }
    }
}

/* What JSON makes of the UTF-8 string s, byte by byte: the reference
 * the writer's sixteen and eight bytes at a time must agree with. */
static char *
escape_by_bytes (const char *s)
{
  GString *out = g_string_new ("\"");

  for (const unsigned char *c = (const unsigned char *) s; *c != '\0'; c++)
    {
      if (*c == '"')
        g_string_append (out, "\\\"");
      else if (*c == '\\')
        g_string_append (out, "\\\\");
      else if (*c == '\n')
        g_string_append (out, "\\n");
      else if (*c == '\t')
        g_string_append (out, "\\t");
      else if (*c == '\r')
        g_string_append (out, "\\r");
      else if (*c < 0x20)
        g_string_append_printf (out, "\\u%04x", *c);
      else
        g_string_append_c (out, (char) *c);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static void
test_strings (void)
{
  /* plain ASCII mostly, as a file's names and messages are, with what
   * needs a look: quotes, backslashes, control characters, characters of
   * two, three and four bytes, and bytes that are not UTF-8 */
  static const char * const pieces[] = {
    "a", "b", "z", "0", " ", ":", "/", ".", "\"", "\\", "\n", "\t", "\r", "\x01", "\x1f", "\x7f",
    "×", "“", "”", "é", "€", "😀", "\xff", "\xc3", "\xe2\x80", "\x80",
  };
  GRand *rand = g_rand_new_with_seed (16);

  for (guint round = 0; round < 20000; round++)
    {
      g_autoptr(GString) value = g_string_new (NULL);
      g_autoptr(GString) out = g_string_sized_new (1);
      g_autofree char *valid = NULL, *expected = NULL;
      guint n = (guint) g_rand_int_range (rand, 0, 60);
      /* runs of plain letters long enough for whole words */
      gboolean plain = g_rand_boolean (rand);
      BlJson json;

      for (guint i = 0; i < n; i++)
        g_string_append (value, pieces[plain && g_rand_int_range (rand, 0, 8) != 0
                                       ? g_rand_int_range (rand, 0, 8)
                                       : g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
      valid = g_utf8_make_valid (value->str, -1);
      expected = escape_by_bytes (valid);

      bl_json_init (&json, out, NULL);
      bl_json_string (&json, value->str);
      g_assert_cmpstr (out->str, ==, expected);
    }
  g_rand_free (rand);
}

/* A number is written alike each time: those written a moment ago are
 * copied as they were written, whatever was written between. */
static void
test_numbers_repeat (void)
{
  GRand *rand = g_rand_new_with_seed (6);
  double values[64];
  char *first[64] = { NULL };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      /* whole, short and long decimals, large and tiny, both signs */
      switch (i % 4)
        {
        case 0: values[i] = g_rand_int_range (rand, -1000, 1000) / 8.0; break;
        case 1: values[i] = g_rand_double_range (rand, -1.0, 1.0); break;
        case 2: values[i] = g_rand_double_range (rand, 1.0, 2.0) * pow (10.0, g_rand_int_range (rand, -300, 300)); break;
        default: values[i] = -values[i - 1] / 3.0; break;
        }
      if (values[i] == 0.0)
        values[i] = 0.25;
    }

  for (guint round = 0; round < 5000; round++)
    {
      g_autoptr(GString) out = g_string_sized_new (1);
      guint i = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (values));
      BlJson json;

      bl_json_init (&json, out, NULL);
      /* several values in one writer, the last the one compared */
      for (guint k = g_rand_int_range (rand, 0, 40); k > 0; k--)
        {
          bl_json_number (&json, values[g_rand_int_range (rand, 0, G_N_ELEMENTS (values))]);
          g_string_truncate (out, 0);
          json.need_comma = FALSE;
        }
      bl_json_numbers (&json, &values[i], 1);
      /* "[x]": the number alone */
      g_assert_true (out->len > 2 && out->str[0] == '[' && out->str[out->len - 1] == ']');
      g_string_truncate (out, out->len - 1);
      g_assert_cmpfloat (g_ascii_strtod (out->str + 1, NULL), ==, values[i]);
      if (first[i] == NULL)
        first[i] = g_strdup (out->str + 1);
      else
        g_assert_cmpstr (out->str + 1, ==, first[i]);
    }

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_free (first[i]);
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/json/room", test_room);
  g_test_add_func ("/cli/json/strings", test_strings);
  g_test_add_func ("/cli/json/numbers-repeat", test_numbers_repeat);
  return g_test_run ();
}
