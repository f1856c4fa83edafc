/* test-json.c: the CLI's JSON writer keeps within the room it makes.
 *
 * Each value is written with plain stores after one check for room
 * (bl-json.c's reserve): a write one byte past that room overruns the
 * string's buffer by its NUL when the buffer ends right there, which the
 * sanitizers caught once for a key after a comma.  Here every value is
 * written at every distance from the buffer's end, and the NUL must stay
 * inside it: len < allocated_len after each. */
#include "config.h"

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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/json/room", test_room);
  return g_test_run ();
}
