/* fuzz-shape.c: libFuzzer target that builds large hostile documents from a
 * few bytes, the shapes that found issue 14's bugs where byte-level
 * fuzzing of small inputs never reaches.
 *
 * Byte 0 picks the shape, the next bytes its size (little-endian), and the
 * rest of the input is spliced into the document (inside the innermost
 * link, or each included file's link) so that libFuzzer mutates content
 * too:
 *
 *   0  nesting depth: N nested <model>s (N < 1024: past the loader's 64
 *      and libxml2's 256 levels), a link in each
 *   1  attribute counts: one <link> with N attributes (N < 65536: past
 *      the limit of 256), some in single quotes, on lines of their own,
 *      or with values holding '>', "&lt;" and "/>"
 *   2  text node sizes: links a, b and c with a text of N bytes
 *      (N < 16 MiB: past libxml2's 10 MB) in a <plugin> after a, whole
 *      or split by character references
 *   3  include graphs: N files (2 to 17), and for each ordered pair one
 *      bit: file i includes file j (twice when the next bit is set too);
 *      file 0 is loaded
 *   4  comment counts: N short comments (N < 1 M, 9 MB: past the limit
 *      of 100,000.  More cost the editable load what any file of their
 *      size costs, reading and filtering it: 16 M, 150 MB, over 30 s
 *      under ASan)
 *   5  frame chains: N <frame>s each relative to the one before
 *      (N < 65,536, 5 MB: past the 40,000 whose recursion overflowed the
 *      stack.  A longer chain costs what any file of its size costs, in
 *      time and memory, libxml2's tree most of it: a million took 4 GB
 *      under ASan, 250,000 over 30 s; docs/HARDENING.md)
 *   6  floods inside what the loads keep: the next byte picks one of
 *      FLOODS (an element repeated where its reader reads the first,
 *      unknown children of a plugin, an <inertia> or an <include>, what
 *      follows a shape), then N copies (N < 65,536) with the rest of the
 *      input in the first, in front of a link that reads them
 *
 * Every document is a real file in a temporary folder and is loaded both
 * ways, the default and the read-only (streaming) load: both must refuse
 * it with the same message or give the same links, values (bit for bit)
 * and diagnostics (tests/compare-documents.c).  Its seeds in
 * fuzz/seeds/shape/ are replayed in every build (fuzz-shape-seeds). */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "bl-document.h"
#include "compare-documents.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

#define HEAD "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n"

typedef struct
{
  const guint8 *p;
  const guint8 *end;
} Input;

static guint32
take (Input *in,
      guint  bytes)
{
  guint32 value = 0;

  for (guint i = 0; i < bytes && in->p < in->end; i++)
    value |= (guint32) *in->p++ << (8 * i);
  return value;
}

/* The rest of the input, as text spliced into a link. */
static void
append_rest (GString     *out,
             const Input *in)
{
  g_string_append_len (out, (const char *) in->p, in->end - in->p);
}

static void
link_with_rest (GString     *out,
                const char  *name,
                const Input *in)
{
  g_string_append_printf (out, "<link name=\"%s\"><inertial><mass>1</mass></inertial>", name);
  append_rest (out, in);
  g_string_append (out, "</link>\n");
}

static void
write_or_die (const char *path,
              GString    *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
}

static void
build_depth (GString *out,
             Input   *in)
{
  guint n = take (in, 2) % 1024;

  g_string_append (out, HEAD);
  for (guint i = 0; i <= n; i++)
    g_string_append_printf (out, "<model name=\"m%u\"><link name=\"l\"/>\n", i);
  link_with_rest (out, "inner", in);
  for (guint i = 0; i <= n; i++)
    g_string_append (out, "</model>\n");
  g_string_append (out, "</sdf>\n");
}

static void
build_attributes (GString *out,
                  Input   *in)
{
  guint n = take (in, 2);

  g_string_append (out, HEAD "<model name=\"m\"><link name=\"l\"");
  for (guint i = 0; i < n; i++)
    {
      /* what the scan that counts them must read past: quotes of either
       * kind, line breaks, and values that look like markup */
      const char *space = i % 11 == 10 ? "\n" : " ";

      if (i % 7 == 3)
        g_string_append_printf (out, "%sa%u=\"&lt;x a='1'/> %u>\"", space, i, i);
      else if (i % 5 == 1)
        g_string_append_printf (out, "%sa%u='%u\"'", space, i, i);
      else
        g_string_append_printf (out, "%sa%u=\"%u\"", space, i, i);
    }
  g_string_append (out, "><inertial><mass>1</mass></inertial>");
  append_rest (out, in);
  g_string_append (out, "</link></model></sdf>\n");
}

static void
build_text (GString *out,
            Input   *in)
{
  guint n = take (in, 3);
  guint split = take (in, 1);

  g_string_append (out, HEAD "<model name=\"m\">\n<link name=\"a\"/>\n<plugin name=\"p\" filename=\"f\">");
  for (guint i = 0; i < n; i++)
    {
      /* a character reference every SPLIT bytes makes the text arrive in pieces */
      if (split != 0 && i % (split * 4096u) == 0 && i > 0)
        g_string_append (out, "&#120;");
      else
        g_string_append_c (out, 'x');
    }
  g_string_append (out, "</plugin>\n<link name=\"b\"/>\n");
  link_with_rest (out, "c", in);
  g_string_append (out, "</model></sdf>\n");
}

static void
build_comments (GString *out,
                Input   *in)
{
  guint n = take (in, 3) % (1u << 20);

  g_string_append (out, HEAD "<model name=\"m\">\n");
  for (guint i = 0; i < n; i++)
    g_string_append (out, i % 97 == 96 ? "<?pi x?>\n" : "<!--x-->\n");
  link_with_rest (out, "l", in);
  g_string_append (out, "</model></sdf>\n");
}

/* Shape 6: where the copies go, what each is (a number between BEFORE
 * and AFTER), and what closes the place. */
static const struct
{
  const char *open;
  const char *before;
  const char *after;
  const char *close;
} floods[] = {
  { "<plugin filename=\"gz-sim-hydrodynamics-system\" name=\"gz::sim::systems::Hydrodynamics\">"
    "<link_name>l</link_name><xDotU>-1</xDotU>", "<a>1</a><xDotU>", "</xDotU><link_name>x</link_name>",
    "</plugin>" },
  { "<link name=\"l\"><pose>0 0 1 0 0 0</pose>", "<pose>", " 0 0 0 0 0</pose>",
    "<inertial><mass>1</mass><fluid_added_mass><xx>1</xx></fluid_added_mass></inertial></link>" },
  { "<link name=\"l\"><inertial><mass>1</mass><inertia><ixx>1</ixx>", "<ixx>", "</ixx><a>1</a><iyy/>",
    "</inertia></inertial></link>" },
  { "<link name=\"l\"><inertial><mass>1</mass><fluid_added_mass><xx>1</xx>", "<b>", "</b><xx>x</xx>",
    "</fluid_added_mass></inertial></link>" },
  { "<link name=\"l\"><collision name=\"c\"><geometry><c/>", "<c>", "</c>",
    "<box><size>1 1 1</size></box><sphere/></geometry></collision></link>" },
  { "<link name=\"l\"><collision name=\"c\"><geometry><box><size>1 1 1</size>", "<a>", "</a>",
    "</box></geometry></collision></link>" },
  { "<link name=\"l\"><inertial><mass>1</mass></inertial></link><include><uri>nothing</uri>", "<a>",
    "</a><name>n</name>", "</include>" },
};

static void
build_floods (GString *out,
              Input   *in)
{
  guint which = take (in, 1) % G_N_ELEMENTS (floods);
  guint n = take (in, 2);

  g_string_append_printf (out, HEAD "<model name=\"m\">%s", floods[which].open);
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%s%u%s", floods[which].before, i, floods[which].after);
      if (i == 0)
        append_rest (out, in);
    }
  g_string_append_printf (out, "%s</model></sdf>\n", floods[which].close);
}

static void
build_frames (GString *out,
              Input   *in)
{
  guint n = take (in, 3) % (1u << 16);

  g_string_append (out, HEAD "<model name=\"m\">\n<frame name=\"f0\"/>\n");
  for (guint i = 1; i < n; i++)
    g_string_append_printf (out, "<frame name=\"f%u\"><pose relative_to=\"f%u\">0 0 1 0 0 0</pose></frame>\n",
                            i, i - 1);
  g_string_append_printf (out, "<link name=\"l\"><pose relative_to=\"f%u\"/>", n > 0 ? n - 1 : 0);
  append_rest (out, in);
  g_string_append (out, "<inertial><mass>1</mass></inertial></link>\n</model></sdf>\n");
}

/* Writes the include graph's files into DIR; the path of file 0. */
static char *
build_include_graph (const char *dir,
                     Input      *in)
{
  guint n = 2 + take (in, 1) % 16;
  guint8 edges[17][17] = { { 0 } };

  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j += 4)
      {
        guint bits = take (in, 1);

        for (guint k = 0; k < 4 && j + k < n; k++)
          edges[i][j + k] = (bits >> (2 * k)) & 3;
      }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GString) text = g_string_new (HEAD);
      g_autofree char *name = g_strdup_printf ("f%u.sdf", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      guint k = 0;

      g_string_append_printf (text, "<model name=\"m%u\">\n", i);
      link_with_rest (text, "l", in);
      for (guint j = 0; j < n; j++)
        for (guint copies = 0; copies < (edges[i][j] == 3 ? 2u : edges[i][j] != 0 ? 1u : 0u); copies++)
          g_string_append_printf (text, "<include><uri>f%u.sdf</uri><name>i%u</name></include>\n", j, k++);
      g_string_append (text, "</model></sdf>\n");
      write_or_die (path, text);
    }
  return g_build_filename (dir, "f0.sdf", NULL);
}

static void
remove_folder (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error_full = NULL;
  g_autoptr(GError) error_lean = NULL;
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  Input in = { data, data + size };
  guint shape;

  if (size == 0)
    return 0;
  shape = take (&in, 1) % 7;
  dir = g_dir_make_tmp ("fuzz-shape-XXXXXX", NULL);
  g_assert (dir != NULL);

  if (shape == 3)
    path = build_include_graph (dir, &in);
  else
    {
      g_autoptr(GString) text = g_string_new (NULL);

      if (shape == 0)
        build_depth (text, &in);
      else if (shape == 1)
        build_attributes (text, &in);
      else if (shape == 2)
        build_text (text, &in);
      else if (shape == 4)
        build_comments (text, &in);
      else if (shape == 5)
        build_frames (text, &in);
      else
        build_floods (text, &in);
      path = g_build_filename (dir, "model.sdf", NULL);
      write_or_die (path, text);
    }

  full = bl_document_new_from_file (path, &error_full);
  lean = bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_READ_ONLY, &error_lean);
  g_assert ((full == NULL) == (lean == NULL));
  if (full == NULL)
    g_assert_cmpstr (error_full->message, ==, error_lean->message);
  else
    bl_test_assert_same_documents (full, lean);

  remove_folder (dir);
  return 0;
}
