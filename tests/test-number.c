/* test-number.c: strict number parsing and shortest round-trip formatting. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bl-number.h"

/* The reference: the shortest %.Ng (N = 1…17) that reads back. */
static int
shortest_digits (double value)
{
  char buf[40];

  for (int precision = 1; precision <= 17; precision++)
    {
      snprintf (buf, sizeof buf, "%.*g", precision, value);
      if (g_ascii_strtod (buf, NULL) == value)
        return precision;
    }
  g_assert_not_reached ();
}

static int
significant_digits (const char *text)
{
  int n = 0;
  gboolean leading = TRUE;
  int trailing_zeros = 0;

  for (const char *p = text; *p != '\0' && *p != 'e'; p++)
    {
      if (!g_ascii_isdigit (*p))
        continue;
      if (leading && *p == '0')
        continue;
      leading = FALSE;
      n++;
      trailing_zeros = *p == '0' ? trailing_zeros + 1 : 0;
    }
  /* integers like "1000" have trailing zeros that are not significant */
  return MAX (n - trailing_zeros, 1);
}

/* The significant digits of a number's text: no sign, point, exponent,
 * leading or trailing zeros ("-0.0120e+03" → "12"). */
static void
normalised_digits (const char *text,
                   char        out[32])
{
  guint n = 0;

  for (const char *p = text; *p != '\0' && *p != 'e' && n < 31; p++)
    {
      if (!g_ascii_isdigit (*p) || (n == 0 && *p == '0'))
        continue;
      out[n++] = *p;
    }
  while (n > 1 && out[n - 1] == '0')
    n--;
  out[n] = '\0';
}

static void
check_value (double value)
{
  char buf[BL_DOUBLE_BUF_SIZE];
  double back;

  bl_number_format (value, buf);
  g_assert_true (bl_number_parse (buf, &back));
  if (back != value)
    g_error ("%.17g formatted as %s reads back as %.17g", value, buf, back);
  if (significant_digits (buf) > shortest_digits (value))
    g_error ("%.17g formatted as %s: %d digits, %d would do", value, buf,
             significant_digits (buf), shortest_digits (value));

  /* Of the forms that short, the nearest: when the correctly rounded
   * %.Ng of that length reads back, those are the digits (glibc's printf
   * and the formatter both break exact ties to even). */
  {
    char nearest[40], ours[32], theirs[32];
    int n = significant_digits (buf);

    snprintf (nearest, sizeof nearest, "%.*g", n, value);
    if (g_ascii_strtod (nearest, NULL) == value)
      {
        normalised_digits (buf, ours);
        normalised_digits (nearest, theirs);
        if (strcmp (ours, theirs) != 0)
          g_error ("%.17g formatted as %s, but %s is as short and nearer", value, buf, nearest);
      }
  }
}

static void
test_format_known (void)
{
  char buf[BL_DOUBLE_BUF_SIZE];

  g_assert_cmpstr (bl_number_format (0.1, buf), ==, "0.1");
  g_assert_cmpstr (bl_number_format (-0.25, buf), ==, "-0.25");
  g_assert_cmpstr (bl_number_format (1000, buf), ==, "1000");
  g_assert_cmpstr (bl_number_format (17.982, buf), ==, "17.982");
  g_assert_cmpstr (bl_number_format (1e-9, buf), ==, "1e-09");
  g_assert_cmpstr (bl_number_format (0.0001, buf), ==, "0.0001");
  g_assert_cmpstr (bl_number_format (1.5e20, buf), ==, "1.5e+20");
  g_assert_cmpstr (bl_number_format (0.1 + 0.2, buf), ==, "0.30000000000000004");
  g_assert_cmpstr (bl_number_format (-0.0, buf), ==, "-0");
  g_assert_cmpstr (bl_number_format (G_PI, buf), ==, "3.141592653589793");
  /* 9.999999999999999e22 and 1e23 are the same double */
  g_assert_cmpstr (bl_number_format (9.999999999999999e22, buf), ==, "1e+23");
  /* integers below 10^15 take a path of their own */
  g_assert_cmpstr (bl_number_format (4096, buf), ==, "4096");
  g_assert_cmpstr (bl_number_format (-1025, buf), ==, "-1025");
  g_assert_cmpstr (bl_number_format (100000000000000, buf), ==, "100000000000000");
  g_assert_cmpstr (bl_number_format (999999999999999, buf), ==, "999999999999999");
  g_assert_cmpstr (bl_number_format (-120000000, buf), ==, "-120000000");
  g_assert_cmpstr (bl_number_format (1e15, buf), ==, "1000000000000000");
  /* the ends of the range: 2^-1074 is 4.94e-324, and 5e-324 the one digit
   * inside its rounding interval (half an ulp, 2.47e-324, either side);
   * the largest double, 17 digits, and the smallest normal one */
  g_assert_cmpstr (bl_number_format (5e-324, buf), ==, "5e-324");
  g_assert_cmpstr (bl_number_format (-DBL_TRUE_MIN, buf), ==, "-5e-324");
  g_assert_cmpstr (bl_number_format (DBL_MAX, buf), ==, "1.7976931348623157e+308");
  g_assert_cmpstr (bl_number_format (DBL_MIN, buf), ==, "2.2250738585072014e-308");
  /* 2^53 + 1 is no double: it reads as 2^53, whose neighbours are 1
   * below and 2 above, so that none of 15 digits is within half of that */
  g_assert_cmpstr (bl_number_format (9007199254740993.0, buf), ==, "9007199254740992");
  /* 17 digits, each a digit count of its own for decimal_length */
  g_assert_cmpstr (bl_number_format (123456789012345678.0, buf), ==, "1.2345678901234568e+17");
  g_assert_cmpstr (bl_number_format (1.0 / 3.0, buf), ==, "0.3333333333333333");
  g_assert_cmpstr (bl_number_format (2.0 / 3.0, buf), ==, "0.6666666666666666");
  g_assert_cmpstr (bl_number_format (0.1 * 3, buf), ==, "0.30000000000000004");
  /* where the fixed form ends: 10^-5 and 10^16 still fixed */
  g_assert_cmpstr (bl_number_format (1e-5, buf), ==, "0.00001");
  g_assert_cmpstr (bl_number_format (1e-6, buf), ==, "1e-06");
  g_assert_cmpstr (bl_number_format (1e16, buf), ==, "10000000000000000");
  g_assert_cmpstr (bl_number_format (1e17, buf), ==, "1e+17");
  /* the double nearest 9.999999999999999e16 is 99999999999999984 (an ulp
   * is 16 there): 9999999999999998e1, 4 from it, is the shortest within 8 */
  g_assert_cmpstr (bl_number_format (9.999999999999999e16, buf), ==, "99999999999999980");
  /* an integer part of every length from 1 to 16 digits before the point
   * (10^(k−1) + 0.5 is exact up to 2^53): "1", k − 1 zeros, ".5" */
  for (int k = 1; k <= 16; k++)
    {
      char expected[24];

      memset (expected, '0', k);
      expected[0] = '1';
      memcpy (expected + k, ".5", 3);
      g_assert_cmpstr (bl_number_format (pow (10, k - 1) + 0.5, buf), ==, expected);
      expected[k + 1] = '2';
      expected[k + 2] = '5';
      expected[k + 3] = '\0';
      if (k <= 15)
        g_assert_cmpstr (bl_number_format (pow (10, k - 1) + 0.25, buf), ==, expected);
    }
}

static void
test_format_round_trip (void)
{
  GRand *rand = g_rand_new_with_seed (20261122);
  const double specials[] = {
    DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_MAX, 5e-324, 1.7976931348623157e308,
    0.5, 2.0 / 3.0, 1e15, 1e16, 1e17, 123456789012345678.0, 9.5, 0.95, 99.99999999999999,
  };

  for (guint i = 0; i < G_N_ELEMENTS (specials); i++)
    check_value (specials[i]);

  for (guint i = 0; i < 50000; i++)
    {
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double value;

      memcpy (&value, &bits, sizeof value);
      if (!isfinite (value))
        continue;
      check_value (value);
      /* values of everyday size, and short decimals */
      check_value (g_rand_double_range (rand, -1e4, 1e4));
      check_value (g_rand_int_range (rand, -100000, 100000) / 1000.0);
      /* integers of every length to 2^53, some with trailing zeros */
      check_value ((double) (gint64) (bits >> (11 + i % 53)) * (i % 2 ? 1 : -1));
      check_value ((double) (bits >> (24 + i % 40)) * (i % 3 == 0 ? 1000 : 10));
    }

  g_rand_free (rand);
}

/* bl_number_format_g against the C library's printf, which rounds the
 * exact binary value: every precision, for one value. */
static void
check_g (double value)
{
  for (int precision = 0; precision <= 17; precision++)
    {
      char expected[64];
      char buf[BL_DOUBLE_BUF_SIZE];
      gsize length;

      snprintf (expected, sizeof expected, "%.*g", precision, value);
      length = bl_number_write_g (value, precision, buf);
      if (strcmp (buf, expected) != 0 || length != strlen (expected))
        g_error ("%%.%dg of %a: \"%s\" (%" G_GSIZE_FORMAT "), printf \"%s\"",
                 precision, value, buf, length, expected);
      g_assert_cmpstr (bl_number_format_g (value, precision, buf), ==, expected);
    }
}

/* The same text as printf's %g: random doubles of every magnitude, short
 * decimals (those ending in 5, whose shortest form is a tie where it is
 * rounded), their neighbours, binade ends, subnormals, the specials. */
static void
test_format_g (void)
{
  GRand *rand = g_rand_new_with_seed (20261126);
  const double specials[] = {
    0.0, -0.0, INFINITY, -INFINITY, NAN, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 1e-5, 1e-4,
    9.9995, 999.5, 0.0001, 0.00012345, 1e15, 1e16, 123456, 0.5, 2.5, 0.125, 1.0005, 99.95,
    9.5, 0.95, 2.0 / 3.0, 33.46, 0.845317, 39.5976, 126.3, 5e-324, 1e100, 1e-100, 1e300,
  };

  for (guint i = 0; i < G_N_ELEMENTS (specials); i++)
    {
      check_g (specials[i]);
      check_g (-specials[i]);
    }

  for (guint i = 0; i < 20000; i++)
    {
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double value, decimal;

      memcpy (&value, &bits, sizeof value);
      check_g (value);
      check_g (g_rand_double_range (rand, -1e4, 1e4));
      /* k·10^e with k of 1 to 7 digits: ties in the shortest form */
      decimal = g_rand_int_range (rand, 1, 10000000) * pow (10.0, g_rand_int_range (rand, -12, 12));
      check_g (decimal);
      check_g (nextafter (decimal, 0.0));
      check_g (nextafter (decimal, INFINITY));
    }
  for (int e = -1074; e <= 1023; e += 7)
    {
      double p = ldexp (1.0, e);

      check_g (p);
      check_g (nextafter (p, 0.0));
    }

  g_rand_free (rand);
}

/* Powers of two (the asymmetric rounding intervals), their neighbours,
 * every binade's ends, and subnormals, which carry fewer digits. */
static void
test_format_edges (void)
{
  for (int e = -1074; e <= 1023; e++)
    {
      double p = ldexp (1.0, e);

      check_value (p);
      check_value (-p);
      check_value (nextafter (p, 0.0));
      check_value (nextafter (p, INFINITY));
    }

  for (guint64 m = 1; m < 5000; m++)
    {
      double value;
      guint64 bits = m * G_GUINT64_CONSTANT (900719925474099);

      bits &= (G_GUINT64_CONSTANT (1) << 52) - 1;  /* biased exponent 0: subnormal */
      memcpy (&value, &bits, sizeof value);
      check_value (value);
      memcpy (&value, &m, sizeof value);
      check_value (value);
    }

  /* decimal ties and integers up to 2^53 and beyond */
  for (double v = 0.5; v < 1e6; v *= 1.5)
    check_value (floor (v) + 0.5);
  check_value (9007199254740991.0);
  check_value (9007199254740993.0);
  check_value (1e22);
  check_value (1e23);
  check_value (5e-324);
  check_value (2.2250738585072009e-308);
  check_value (2.2250738585072014e-308);
}

static void
test_parse (void)
{
  double v, vec[3];

  g_assert_true (bl_number_parse (" 1.5 ", &v));
  g_assert_cmpfloat (v, ==, 1.5);
  g_assert_true (bl_number_parse ("-2e3", &v));
  g_assert_cmpfloat (v, ==, -2000);
  g_assert_true (bl_number_parse ("1e308", &v));
  g_assert_cmpfloat (v, ==, 1e308);

  g_assert_false (bl_number_parse ("", &v));
  g_assert_false (bl_number_parse ("abc", &v));
  g_assert_false (bl_number_parse ("1.5kg", &v));
  g_assert_false (bl_number_parse ("nan", &v));
  g_assert_false (bl_number_parse ("inf", &v));
  g_assert_false (bl_number_parse ("-inf", &v));
  g_assert_false (bl_number_parse ("1e999", &v));
  g_assert_false (bl_number_parse ("0x10", &v));
  g_assert_false (bl_number_parse ("1 2", &v));

  g_assert_true (bl_number_parse_vector ("1 2\n\t3", vec, 3));
  g_assert_cmpfloat (vec[2], ==, 3);
  g_assert_false (bl_number_parse_vector ("1 2", vec, 3));
  g_assert_false (bl_number_parse_vector ("1 2 3 4", vec, 3));
  g_assert_cmpuint (bl_number_count_tokens ("  a b  c "), ==, 3);
  g_assert_cmpuint (bl_number_count_tokens ("   "), ==, 0);
}

/* The text the parser reads must give exactly the double strtod gives:
 * short decimals take a path without strtod, which must agree bit for bit
 * (−0 included), and everything else must still be read or refused as
 * before. */
static void
check_parse_as_strtod (const char *text)
{
  double ours = 0.0, theirs;
  char *end = NULL;
  gboolean accepted = bl_number_parse (text, &ours);

  theirs = g_ascii_strtod (text, &end);
  if (end != text && *end == '\0' && isfinite (theirs))
    {
      if (!accepted)
        g_error ("“%s” was refused; strtod reads %.17g", text, theirs);
      if (memcmp (&ours, &theirs, sizeof ours) != 0)
        g_error ("“%s” read as %.17g; strtod reads %.17g", text, ours, theirs);
    }
  else if (accepted)
    g_error ("“%s” was read as %.17g; strtod refuses it", text, ours);
}

static void
test_parse_matches_strtod (void)
{
  static const char * const texts[] = {
    "0", "-0", "+0", "0.0", "-0.0", "00012", "0.000123", "1.", ".5", "-.5", "+.5", "1.e5",
    "1e5", "1E-5", "1e+22", "1e22", "1e23", "1e-22", "1e-23", "0e999", "-0e-999", "9007199254740992",
    "9007199254740993", "9007199254740991e-22", "1234567890123456789", "12345678901234567890",
    "0.1", "0.2", "0.3", "1.5707963267948966", "3.141592653589793", "2.2250738585072014e-308",
    "4.9e-324", "1.7976931348623157e308", "0.30000000000000004", "123.456e-7", "1000000",
    "0.0000000000000000000000000000001", "100000000000000000000000", "1.0000000000000000001",
  };
  GRand *rand = g_rand_new_with_seed (20261123);

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    check_parse_as_strtod (texts[i]);

  /* decimals of every length and exponent, signs and leading zeros */
  for (guint i = 0; i < 200000; i++)
    {
      char text[64];
      int n = 0;
      int n_digits = g_rand_int_range (rand, 1, 22);
      int point = g_rand_int_range (rand, -1, n_digits + 1);

      if (g_rand_boolean (rand))
        text[n++] = g_rand_boolean (rand) ? '-' : '+';
      for (int d = 0; d < n_digits; d++)
        {
          if (d == point)
            text[n++] = '.';
          text[n++] = (char) ('0' + (d == 0 && g_rand_int_range (rand, 0, 4) != 0
                                     ? g_rand_int_range (rand, 1, 10) : g_rand_int_range (rand, 0, 10)));
        }
      if (point == n_digits)
        text[n++] = '.';
      if (g_rand_int_range (rand, 0, 3) == 0)
        n += g_snprintf (text + n, sizeof text - n, "e%d", g_rand_int_range (rand, -40, 40));
      text[n] = '\0';
      check_parse_as_strtod (text);
    }

  /* and the shortest forms of random doubles, written by the formatter */
  for (guint i = 0; i < 50000; i++)
    {
      char buf[BL_DOUBLE_BUF_SIZE];
      double value = g_rand_double_range (rand, -1e4, 1e4);

      g_assert_cmpuint (bl_number_write (value, buf), ==, strlen (buf));
      check_parse_as_strtod (buf);
    }

  g_rand_free (rand);
}

static void
test_clean_noise (void)
{
  double tensor[6] = { 4544.83, 4544.83, 3895.57, -1.5e-15, -3.2e-13, 2.7e-15 };
  double position[3] = { -1.7e-18, 1.7e-17, -1.4e-17 };
  double real[3] = { 1e-9, 0.0, -2e-9 };

  /* relative to the largest entry */
  bl_number_clean_noise (tensor, 6, 0.0);
  g_assert_cmpfloat (tensor[0], ==, 4544.83);
  g_assert_cmpfloat (tensor[3], ==, 0.0);
  g_assert_cmpfloat (tensor[4], ==, 0.0);
  g_assert_cmpfloat (tensor[5], ==, 0.0);

  /* all noise: only a length scale (a radius of gyration of 1 m) tells */
  bl_number_clean_noise (position, 3, 1.0);
  g_assert_cmpfloat (position[0], ==, 0.0);
  g_assert_cmpfloat (position[1], ==, 0.0);
  g_assert_cmpfloat (position[2], ==, 0.0);

  /* small but real values of a small body stay */
  bl_number_clean_noise (real, 3, 1e-6);
  g_assert_cmpfloat (real[0], ==, 1e-9);
  g_assert_cmpfloat (real[2], ==, -2e-9);
}

/* A product that binary rounds off its decimal: four fins of 1200 kg/m³,
 * 0.14 × 0.012 × 0.1 m each (the sample's), weigh 4 × 0.2016 = 0.8064 kg
 * exactly, but the sum of the doubles is 0.8064000000000002, one ulp off. */
static void
test_clean_product (void)
{
  double mass = 0.0;
  char buf[BL_DOUBLE_BUF_SIZE];

  for (guint i = 0; i < 4; i++)
    mass += 1200.0 * 0.14 * 0.012 * 0.1;
  g_assert_cmpstr (bl_number_format (mass, buf), ==, "0.8064000000000002");

  g_assert_cmpfloat (bl_number_clean (mass, 0.0), ==, 0.8064);
  g_assert_cmpstr (bl_number_format (bl_number_clean (mass, 0.0), buf), ==, "0.8064");
  /* one fin: 0.20160000000000006, within 4 ulps of 0.2016 */
  g_assert_cmpfloat (bl_number_clean (1200.0 * 0.14 * 0.012 * 0.1, 0.0), ==, 0.2016);
}

/* A box rotated by a quarter turn about x: R·I·Rᵀ with R = Rx(π/2) in
 * doubles (cos π/2 = 6.1e-17, not 0) leaves iyz = c·s·(Iyy − Izz) ≈ 1e-20
 * where the exact value is 0, and swaps Iyy and Izz. */
static void
test_clean_rotated_box (void)
{
  /* a 0.2016 kg box 0.14 × 0.012 × 0.1 m: m(b² + c²)/12 … */
  const double ixx = 0.2016 * (0.012 * 0.012 + 0.1 * 0.1) / 12.0;
  const double iyy = 0.2016 * (0.14 * 0.14 + 0.1 * 0.1) / 12.0;
  const double izz = 0.2016 * (0.14 * 0.14 + 0.012 * 0.012) / 12.0;
  const double angle = 1.5707963267948966;
  double c = cos (angle), s = sin (angle);
  double local[3][3] = { { ixx, 0, 0 }, { 0, iyy, 0 }, { 0, 0, izz } };
  double r[3][3] = { { 1, 0, 0 }, { 0, c, -s }, { 0, s, c } };
  double rotated[3][3] = { { 0 } };

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
          rotated[i][j] += r[i][k] * local[k][l] * r[j][l];
  g_assert_cmpfloat (rotated[1][2], !=, 0.0);
  g_assert_cmpfloat (fabs (rotated[1][2]), <, 1e-19);

  bl_number_clean_noise (&rotated[0][0], 9, 0.0);
  g_assert_cmpfloat (rotated[1][2], ==, 0.0);
  g_assert_cmpfloat (rotated[2][1], ==, 0.0);
  g_assert_false (signbit (rotated[1][2]));
  g_assert_cmpfloat (rotated[0][1], ==, 0.0);
  /* the diagonal keeps its digits: 1.704192e-4, then Izz and Iyy swapped */
  g_assert_cmpfloat (rotated[0][0], ==, 1.704192e-4);
  g_assert_cmpfloat (rotated[1][1], ==, 3.316992e-4);
  g_assert_cmpfloat (rotated[2][2], ==, 4.9728e-4);
}

/* The tolerance is a few ulps of the quantity's scale, not of the value. */
static void
test_clean_scale (void)
{
  /* 4 ulps of 0.12…: 1.1e-16, so all 16 digits stay */
  g_assert_cmpfloat (bl_number_clean (0.1234567890123456, 0.0), ==, 0.1234567890123456);
  /* an entry of a tensor whose largest is 1e6: 4·2⁻⁵²·1e6 = 8.9e-10, so
   * 0.1234567891 is 0.123456789 (1e-10 away) but 0.123456789 stays (the
   * 8-digit 0.12345679 is 1e-9 away) */
  g_assert_cmpfloat (bl_number_clean (0.1234567891, 1e6), ==, 0.123456789);
  g_assert_cmpfloat (bl_number_clean (0.123456789, 1e6), ==, 0.123456789);
  /* below 1e-12 of the scale: 0, never −0 */
  g_assert_cmpfloat (bl_number_clean (-9e-13, 1.0), ==, 0.0);
  g_assert_false (signbit (bl_number_clean (-9e-13, 1.0)));
  g_assert_cmpfloat (bl_number_clean (-1.1e-12, 1.0), ==, -1.1e-12);
  /* a scale below the value is the value */
  g_assert_cmpfloat (bl_number_clean (2.5, 1e-3), ==, 2.5);
  g_assert_true (isnan (bl_number_clean (NAN, 1.0)));
  g_assert_cmpfloat (bl_number_clean (INFINITY, 1.0), ==, INFINITY);
}

/* On random values and scales: within 4 ulps of the scale, and no decimal
 * with fewer significant digits is (the search must not stop short). */
static void
test_clean_shortest (void)
{
  GRand *rand = g_rand_new_with_seed (20261126);

  for (guint i = 0; i < 20000; i++)
    {
      double value = g_rand_double_range (rand, -1.0, 1.0) * pow (10.0, g_rand_int_range (rand, -8, 8));
      double scale = fabs (value) * pow (10.0, g_rand_double_range (rand, 0.0, 6.0));
      double tolerance = BL_NUMBER_NOISE_ULPS * DBL_EPSILON * scale;
      double clean = bl_number_clean (value, scale);
      char text[64];
      int digits;

      if (clean == 0.0)
        {
          g_assert_cmpfloat (fabs (value), <, BL_NUMBER_NOISE_ZERO * scale);
          continue;
        }
      g_assert_cmpfloat (fabs (clean - value), <=, tolerance);
      /* its significant digits: those of its shortest form without the
       * sign, the point, the exponent and the zeros on either side */
      {
        char *mantissa, *end;

        bl_number_format (clean, text);
        if (strchr (text, 'e') != NULL)
          *strchr (text, 'e') = '\0';
        mantissa = text;
        while (*mantissa == '-' || *mantissa == '0' || *mantissa == '.')
          mantissa++;
        end = mantissa + strlen (mantissa);
        while (end > mantissa && (end[-1] == '0' || end[-1] == '.'))
          end--;
        digits = 0;
        for (const char *c = mantissa; c < end; c++)
          if (g_ascii_isdigit (*c))
            digits++;
      }
      if (digits > 1)
        {
          char shorter[64];

          g_snprintf (shorter, sizeof shorter, "%.*e", digits - 2, value);
          g_assert_cmpfloat (fabs (g_ascii_strtod (shorter, NULL) - value), >, tolerance);
        }
    }
  g_rand_free (rand);
}

/* bl_number_clean as its rule reads: the fewest significant digits p
 * whose rounding, what strtod reads from printf's "%.{p-1}e", lies
 * within BL_NUMBER_NOISE_ULPS ulps of the scale; each p tried in turn. */
static double
clean_by_printf (double value,
                 double scale)
{
  if (!isfinite (value))
    return value;
  if (!(scale >= fabs (value)))
    scale = fabs (value);
  if (fabs (value) < BL_NUMBER_NOISE_ZERO * scale)
    return 0.0;
  for (int p = 1; p <= 17; p++)
    {
      char text[64];
      double rounded;

      g_snprintf (text, sizeof text, "%.*e", p - 1, value);
      rounded = g_ascii_strtod (text, NULL);
      if (fabs (rounded - value) <= BL_NUMBER_NOISE_ULPS * DBL_EPSILON * scale)
        return rounded;
    }
  g_assert_not_reached ();
}

/* The same double as clean_by_printf, bit for bit, for values of every
 * magnitude (subnormal and huge ones included), short decimals and the
 * products of short decimals, ties of the rounding (2.5, 0.125) and
 * scales from the value to 10^6 times it. */
static void
test_clean_matches_printf (void)
{
  GRand *rand = g_rand_new_with_seed (20261127);
  const double specials[] = {
    2.5, 0.125, 1.5e-300, 5e-324, DBL_MIN, DBL_MAX, 9.5, 0.95, 1e22, 1e23, 123456789012345678.0,
    0.1 + 0.2, 1200.0 * 0.14 * 0.012 * 0.1, 999999999999999.9, 0.30000000000000004,
  };

  for (guint i = 0; i < G_N_ELEMENTS (specials); i++)
    for (int k = 0; k < 8; k++)
      {
        double value = specials[i] * (k % 2 ? -1 : 1);
        double scale = fabs (value) * pow (10.0, k);
        double a = bl_number_clean (value, scale), b = clean_by_printf (value, scale);

        if (memcmp (&a, &b, sizeof a) != 0)
          g_error ("%.17g at scale %.17g: %.17g, printf and strtod %.17g", value, scale, a, b);
      }
  for (guint i = 0; i < 20000; i++)
    {
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double values[3], scale_up = pow (10.0, g_rand_double_range (rand, 0.0, 6.0));

      memcpy (&values[0], &bits, sizeof values[0]);
      values[1] = g_rand_int_range (rand, -100000, 100000) / 1000.0 * (g_rand_int_range (rand, 1, 2000) / 100.0);
      values[2] = g_rand_double_range (rand, -1.0, 1.0) * pow (10.0, g_rand_int_range (rand, -20, 20));
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        {
          double scale = fabs (values[k]) * scale_up;
          double a = bl_number_clean (values[k], scale), b = clean_by_printf (values[k], scale);

          if (!isfinite (scale))
            continue;
          if (memcmp (&a, &b, sizeof a) != 0 && !(isnan (a) && isnan (b)))
            g_error ("%.17g at scale %.17g: %.17g, printf and strtod %.17g", values[k], scale, a, b);
        }
    }
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/number/format-known", test_format_known);
  g_test_add_func ("/core/number/format-round-trip", test_format_round_trip);
  g_test_add_func ("/core/number/format-edges", test_format_edges);
  g_test_add_func ("/core/number/format-g", test_format_g);
  g_test_add_func ("/core/number/parse", test_parse);
  g_test_add_func ("/core/number/parse-matches-strtod", test_parse_matches_strtod);

  g_test_add_func ("/core/number/clean-noise", test_clean_noise);
  g_test_add_func ("/core/number/clean-product", test_clean_product);
  g_test_add_func ("/core/number/clean-rotated-box", test_clean_rotated_box);
  g_test_add_func ("/core/number/clean-scale", test_clean_scale);
  g_test_add_func ("/core/number/clean-shortest", test_clean_shortest);
  g_test_add_func ("/core/number/clean-matches-printf", test_clean_matches_printf);

  return g_test_run ();
}
