/* test-mesh-ply.c: binary PLY files read in process (bl-mesh-ply.c) against
 * assimp in the child: the same mesh bit for bit, the files it leaves to
 * assimp, and the ones it refuses. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bl-mesh.h"
#include "bl-mesh-private.h"
#include "compare-meshes.h"
#include "torus.h"

static char *tmp_dir;

static const BlVec3 unit_scale = { 1.0, 1.0, 1.0 };

/* ---------------------------------------------------------------------- */
/* A binary PLY writer with every choice the format leaves open            */

/* How write_ply lays a file out.  NULL fields take the plainest choice. */
typedef struct
{
  gboolean    big_endian;
  const char *coord;      /* the type of x, y and z ("float") */
  const char *vertex;     /* the vertex's properties in order: x, y, z, and others
                           * as NAME:TYPE, written as 7 ("x,y,z") */
  const char *face;       /* the face's: "list" for the index list, others as
                           * NAME:TYPE ("list") */
  const char *count;      /* the list's count type ("uchar") */
  const char *index;      /* its index type ("int") */
  const char *list_name;  /* "vertex_indices" */
  const char *preamble;   /* lines between the format line and the vertices */
  const char *header_end; /* "end_header\n" */
  gssize      cut;        /* bytes cut off the end (negative: zero bytes added) */
} PlyLayout;

/* A mesh as a PLY file gives it: points and faces of any size. */
typedef struct
{
  GArray *points;   /* double, xyz */
  GArray *sizes;    /* guint, indices per face */
  GArray *indices;  /* gint64, so that a test can write any value */
} PlyMesh;

static void
ply_mesh_init (PlyMesh *m)
{
  m->points = g_array_new (FALSE, FALSE, sizeof (double));
  m->sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  m->indices = g_array_new (FALSE, FALSE, sizeof (gint64));
}

static void
ply_mesh_clear (PlyMesh *m)
{
  g_clear_pointer (&m->points, g_array_unref);
  g_clear_pointer (&m->sizes, g_array_unref);
  g_clear_pointer (&m->indices, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PlyMesh, ply_mesh_clear)

static void
ply_point (PlyMesh *m, double x, double y, double z)
{
  double p[3] = { x, y, z };

  g_array_append_vals (m->points, p, 3);
}

/* A face of the N indices that follow. */
static void
ply_face (PlyMesh *m, guint n, ...)
{
  va_list args;

  va_start (args, n);
  g_array_append_val (m->sizes, n);
  for (guint i = 0; i < n; i++)
    {
      gint64 v = va_arg (args, int);

      g_array_append_val (m->indices, v);
    }
  va_end (args);
}

/* The unit tetrahedron, wound outward: V 1/6. */
static void
ply_tetrahedron (PlyMesh *m)
{
  ply_mesh_init (m);
  ply_point (m, 0, 0, 0);
  ply_point (m, 1, 0, 0);
  ply_point (m, 0, 1, 0);
  ply_point (m, 0, 0, 1);
  ply_face (m, 3, 0, 2, 1);
  ply_face (m, 3, 0, 1, 3);
  ply_face (m, 3, 0, 3, 2);
  ply_face (m, 3, 1, 2, 3);
}

static guint
type_size (const char *type)
{
  static const struct { const char *name; guint size; } sizes[] = {
    { "char", 1 }, { "int8", 1 }, { "uchar", 1 }, { "uint8", 1 }, { "short", 2 }, { "int16", 2 },
    { "ushort", 2 }, { "uint16", 2 }, { "int", 4 }, { "int32", 4 }, { "uint", 4 }, { "uint32", 4 },
    { "float", 4 }, { "float32", 4 }, { "double", 8 }, { "float64", 8 }, { "double64", 8 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (strcmp (type, sizes[i].name) == 0)
      return sizes[i].size;
  g_assert_not_reached ();
}

/* V as TYPE, in the file's byte order. */
static void
put_value (GByteArray *out, const char *type, double v, gboolean big_endian)
{
  guint size = type_size (type);
  guint8 bytes[8];
  guint64 bits;

  if (g_str_has_prefix (type, "float") || g_str_has_prefix (type, "double"))
    {
      if (size == 4)
        {
          float f = (float) v;
          guint32 b;

          memcpy (&b, &f, 4);
          bits = b;
        }
      else
        memcpy (&bits, &v, 8);
    }
  else
    bits = (guint64) (gint64) v;

  for (guint i = 0; i < size; i++)
    bytes[big_endian ? size - 1 - i : i] = (guint8) (bits >> (8 * i));
  g_byte_array_append (out, bytes, size);
}

static char *
write_ply (const char *name, const PlyMesh *m, const PlyLayout *l)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GString) header = g_string_new ("ply\n");
  g_auto(GStrv) vertex = g_strsplit (l->vertex != NULL ? l->vertex : "x,y,z", ",", -1);
  g_auto(GStrv) face = g_strsplit (l->face != NULL ? l->face : "list", ",", -1);
  const char *coord = l->coord != NULL ? l->coord : "float";
  const char *count = l->count != NULL ? l->count : "uchar";
  const char *index = l->index != NULL ? l->index : "int";
  guint n_vertices = m->points->len / 3;
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  gsize at = 0;

  g_string_append_printf (header, "format binary_%s_endian 1.0\n%s", l->big_endian ? "big" : "little",
                          l->preamble != NULL ? l->preamble : "");
  g_string_append_printf (header, "element vertex %u\n", n_vertices);
  for (guint i = 0; vertex[i] != NULL; i++)
    {
      g_auto(GStrv) nt = g_strsplit (vertex[i], ":", 2);

      g_string_append_printf (header, "property %s %s\n", nt[1] != NULL ? nt[1] : coord, nt[0]);
    }
  g_string_append_printf (header, "element face %u\n", m->sizes->len);
  for (guint i = 0; face[i] != NULL; i++)
    {
      g_auto(GStrv) nt = g_strsplit (face[i], ":", 2);

      if (strcmp (nt[0], "list") == 0)
        g_string_append_printf (header, "property list %s %s %s\n", count, index,
                                l->list_name != NULL ? l->list_name : "vertex_indices");
      else
        g_string_append_printf (header, "property %s %s\n", nt[1], nt[0]);
    }
  g_string_append (header, l->header_end != NULL ? l->header_end : "end_header\n");
  g_byte_array_append (out, (const guint8 *) header->str, header->len);

  for (guint v = 0; v < n_vertices; v++)
    for (guint i = 0; vertex[i] != NULL; i++)
      {
        g_auto(GStrv) nt = g_strsplit (vertex[i], ":", 2);
        int axis = strcmp (nt[0], "x") == 0 ? 0 : strcmp (nt[0], "y") == 0 ? 1 : strcmp (nt[0], "z") == 0 ? 2 : -1;

        if (axis >= 0 && nt[1] == NULL)
          put_value (out, coord, g_array_index (m->points, double, 3 * v + axis), l->big_endian);
        else
          put_value (out, nt[1], 7, l->big_endian);
      }
  for (guint f = 0; f < m->sizes->len; f++)
    {
      guint n = g_array_index (m->sizes, guint, f);

      for (guint i = 0; face[i] != NULL; i++)
        {
          g_auto(GStrv) nt = g_strsplit (face[i], ":", 2);

          if (strcmp (nt[0], "list") != 0)
            {
              put_value (out, nt[1], 5, l->big_endian);
              continue;
            }
          put_value (out, count, n, l->big_endian);
          for (guint k = 0; k < n; k++)
            put_value (out, index, g_array_index (m->indices, gint64, at + k), l->big_endian);
        }
      at += n;
    }

  if (l->cut >= 0)
    {
      g_assert_cmpint (l->cut, <=, out->len);
      g_byte_array_set_size (out, out->len - l->cut);
    }
  else
    {
      gsize len = out->len;

      g_byte_array_set_size (out, len - l->cut);
      memset (out->data + len, 0, -l->cut);
    }
  g_file_set_contents (path, (const char *) out->data, out->len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
write_bytes (const char *name, const char *data, gssize length)
{
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, data, length, NULL));
  return path;
}

/* Both refuse it, with an error of the same kind naming the file, whose
 * in-process message holds WANT; the file is removed. */
static void
assert_both_refuse (char *path, const char *want)
{
  g_autoptr(GError) error = bl_test_compare_paths (path, unit_scale, TRUE);

  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_assert_nonnull (strstr (error->message, want));
  g_unlink (path);
  g_free (path);
}

/* Read in process, it is refused with a message holding WANT (assimp
 * would read on into stale bytes of its buffer); the file is removed. */
static void
assert_refused (char *path, const char *want)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = bl_mesh_new_from_file (path, unit_scale, NULL, FALSE, &error);
  BlMeshTimings timings;

  bl_mesh_get_timings (&timings);
  g_assert_null (mesh);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, want));
  g_unlink (path);
  g_free (path);
}

/* ---------------------------------------------------------------------- */

static void
test_same_mesh (void)
{
  g_auto(PlyMesh) tet = { 0 };
  g_auto(PlyMesh) odd = { 0 };

  ply_tetrahedron (&tet);
  {
    g_autofree char *path = write_ply ("tet-volume.ply", &tet, &(PlyLayout) { 0 });
    g_autoptr(BlMesh) mesh = bl_mesh_new_from_file (path, unit_scale, NULL, FALSE, NULL);
    BlMeshProperties p;
    BlMeshTimings timings;

    bl_mesh_get_timings (&timings);
    g_assert_true (timings.native);
    g_assert_true (bl_mesh_get_mass_properties (mesh, FALSE, &p, NULL));
    g_assert_cmpfloat (fabs (p.volume - 1.0 / 6.0), <=, 1e-16);
    g_assert_true (p.watertight);
  }
  bl_test_assert_same_and_remove (write_ply ("tet.ply", &tet, &(PlyLayout) { 0 }), TRUE);
  /* assimp takes the extension in any case */
  bl_test_assert_same_and_remove (write_ply ("tet-upper.PLY", &tet, &(PlyLayout) { 0 }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("tet-be.ply", &tet, &(PlyLayout) { .big_endian = TRUE }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("tet-double.ply", &tet, &(PlyLayout) { .coord = "double", .big_endian = TRUE,
                                                                  .count = "ushort", .index = "uint" }), TRUE);
  /* integer coordinates of every size, and every integer count and index type */
  bl_test_assert_same_and_remove (write_ply ("tet-char.ply", &tet, &(PlyLayout) { .coord = "char", .count = "char", .index = "uchar" }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("tet-short.ply", &tet, &(PlyLayout) { .coord = "int16", .count = "int32",
                                                                 .index = "short", .big_endian = TRUE }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("tet-uint.ply", &tet, &(PlyLayout) { .coord = "uint", .count = "uint8",
                                                                .index = "ushort", .list_name = "vertex_index" }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("tet-float64.ply", &tet, &(PlyLayout) { .coord = "float64", .index = "int8" }), TRUE);
  /* other properties around x, y, z and the list, skipped by their size;
   * comments and obj_info lines */
  bl_test_assert_same_and_remove (write_ply ("tet-extra.ply", &tet, &(PlyLayout) {
                 .vertex = "nx:float,x,red:uchar,y,quality:double,z,alpha:ushort",
                 .face = "flags:uchar,list,material_index:int,weight:double",
                 .preamble = "comment made by hand\nobj_info a test\ncomment\ncomment   two  spaces\n" }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("tet-extra-be.ply", &tet, &(PlyLayout) {
                 .big_endian = TRUE, .coord = "double", .vertex = "z,y,x,s:float,t:float",
                 .face = "list,red:uchar,green:uchar,blue:uchar" }), TRUE);

  /* points and lines among the triangles (left out by both), a vertex no
   * face uses, the same point twice (welded), −0 and +0 (welded, +0
   * kept), a zero-area triangle and a repeated corner */
  ply_mesh_init (&odd);
  ply_point (&odd, 0, 0, 0);
  ply_point (&odd, 1, 0, 0);
  ply_point (&odd, 0, 1, 0);
  ply_point (&odd, 0, 0, 1);
  ply_point (&odd, 5, 5, 5);
  ply_point (&odd, 1, -0.0, 0);
  ply_point (&odd, -0.0, -0.0, -0.0);
  ply_face (&odd, 3, 0, 2, 1);
  ply_face (&odd, 1, 4);
  ply_face (&odd, 3, 6, 5, 3);
  ply_face (&odd, 2, 0, 4);
  ply_face (&odd, 3, 0, 3, 2);
  ply_face (&odd, 3, 1, 2, 3);
  ply_face (&odd, 3, 0, 0, 1);
  ply_face (&odd, 3, 0, 1, 5);
  {
    g_autofree char *path = write_ply ("odd.ply", &odd, &(PlyLayout) { 0 });
    g_autoptr(BlMesh) mesh = bl_mesh_new_from_file (path, unit_scale, NULL, FALSE, NULL);
    guint nv, nt;
    const double *v = bl_mesh_get_submesh_vertices (mesh, 0, &nv);

    /* 7 points, of which two are others again; 6 triangles */
    g_assert_cmpuint (nv, ==, 5);
    bl_mesh_get_submesh_indices (mesh, 0, &nt);
    g_assert_cmpuint (nt, ==, 6);
    for (guint i = 0; i < 3 * nv; i++)
      g_assert_false (v[i] == 0.0 && signbit (v[i]));
  }
  bl_test_assert_same_and_remove (write_ply ("odd.ply", &odd, &(PlyLayout) { 0 }), TRUE);
  /* bytes after the faces are ignored, as assimp ignores them */
  bl_test_assert_same_and_remove (write_ply ("tet-longer.ply", &tet, &(PlyLayout) { .cut = -100 }), TRUE);
}

/* A torus large enough for the weld's own thread, in float and double. */
static void
test_same_torus (void)
{
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GArray) indices = NULL;
  g_auto(PlyMesh) m = { 0 };

  torus_mesh (1.0, 0.4, 320, 240, &positions, &indices);
  g_assert_cmpuint (positions->len / 3, >=, 65536);
  ply_mesh_init (&m);
  for (guint i = 0; i < positions->len / 3; i++)
    ply_point (&m, g_array_index (positions, float, 3 * i), g_array_index (positions, float, 3 * i + 1),
               g_array_index (positions, float, 3 * i + 2));
  for (guint t = 0; t < indices->len / 3; t++)
    {
      const guint32 *tri = &g_array_index (indices, guint32, 3 * t);

      ply_face (&m, 3, (int) tri[0], (int) tri[1], (int) tri[2]);
    }
  bl_test_assert_same_and_remove (write_ply ("torus.ply", &m, &(PlyLayout) { 0 }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("torus-double.ply", &m, &(PlyLayout) { .coord = "double", .big_endian = TRUE,
                                                                  .vertex = "x,y,z,nx:float,ny:float,nz:float" }), TRUE);
}

/* Quadrilaterals, cut as assimp cuts them: fanned from a concave corner,
 * and every triangle's corners rotated (NGON encoding) once a file has
 * one. */
static void
test_quads (void)
{
  g_auto(PlyMesh) box = { 0 };
  g_auto(PlyMesh) concave = { 0 };
  g_auto(PlyMesh) random = { 0 };
  GRand *rand = g_rand_new_with_seed (16);

  /* a unit cube of six quadrilaterals, wound outward: volume 1 */
  ply_mesh_init (&box);
  for (int i = 0; i < 8; i++)
    ply_point (&box, i & 1, (i >> 1) & 1, (i >> 2) & 1);
  ply_face (&box, 4, 0, 2, 3, 1);
  ply_face (&box, 4, 4, 5, 7, 6);
  ply_face (&box, 4, 0, 1, 5, 4);
  ply_face (&box, 4, 2, 6, 7, 3);
  ply_face (&box, 4, 0, 4, 6, 2);
  ply_face (&box, 4, 1, 3, 7, 5);
  {
    g_autofree char *path = write_ply ("cube-quads.ply", &box, &(PlyLayout) { 0 });
    g_autoptr(BlMesh) mesh = bl_mesh_new_from_file (path, unit_scale, NULL, FALSE, NULL);
    BlMeshProperties p;

    g_assert_true (bl_mesh_get_mass_properties (mesh, FALSE, &p, NULL));
    g_assert_cmpuint (p.n_triangles, ==, 12);
    g_assert_cmpfloat (fabs (p.volume - 1.0), <=, 1e-15);
    g_assert_true (p.watertight);
  }
  bl_test_assert_same_and_remove (write_ply ("cube-quads.ply", &box, &(PlyLayout) { 0 }), TRUE);

  /* an arrowhead, concave at each of its corners in turn, then triangles
   * and quadrilaterals that start where the one before started (rotated
   * by the encoding), among lines */
  ply_mesh_init (&concave);
  ply_point (&concave, 0, 0, 0);
  ply_point (&concave, 2, 1, 0);
  ply_point (&concave, 0, 2, 0);
  ply_point (&concave, 0.5, 1, 0);
  ply_point (&concave, 0, 0, 1);
  for (int s = 0; s < 4; s++)
    ply_face (&concave, 4, s % 4, (s + 1) % 4, (s + 2) % 4, (s + 3) % 4);
  ply_face (&concave, 3, 3, 4, 0);
  ply_face (&concave, 3, 3, 0, 4);
  ply_face (&concave, 2, 3, 4);
  ply_face (&concave, 3, 3, 1, 4);
  ply_face (&concave, 4, 3, 4, 1, 2);
  ply_face (&concave, 4, 3, 2, 4, 1);
  ply_face (&concave, 3, 3, 2, 4);
  /* a quadrilateral with a repeated corner, and a flat one */
  ply_face (&concave, 4, 0, 0, 1, 2);
  ply_face (&concave, 4, 0, 1, 1, 1);
  bl_test_assert_same_and_remove (write_ply ("concave.ply", &concave, &(PlyLayout) { 0 }), TRUE);
  bl_test_assert_same_and_remove (write_ply ("concave-be.ply", &concave, &(PlyLayout) { .big_endian = TRUE,
                                                                                         .coord = "double" }), TRUE);

  /* many random quadrilaterals, planar or not, convex or not, among
   * triangles: the corner found in float the same as assimp's */
  ply_mesh_init (&random);
  for (int i = 0; i < 64; i++)
    ply_point (&random, g_rand_double_range (rand, -1, 1), g_rand_double_range (rand, -1, 1),
               i % 2 == 0 ? 0 : g_rand_double_range (rand, -0.1, 0.1));
  for (int f = 0; f < 4000; f++)
    {
      int a = g_rand_int_range (rand, 0, 64), b = g_rand_int_range (rand, 0, 64);
      int c = g_rand_int_range (rand, 0, 64), d = g_rand_int_range (rand, 0, 64);

      if (f % 5 == 0)
        ply_face (&random, 3, a, b, c);
      else
        ply_face (&random, 4, a, b, c, d);
    }
  bl_test_assert_same_and_remove (write_ply ("random-quads.ply", &random, &(PlyLayout) { 0 }), TRUE);
  g_rand_free (rand);
}

/* Files this reader leaves to assimp: both loads are the child's. */
static void
test_declined (void)
{
  static const char ascii[] =
    "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
    "element face 4\nproperty list uchar int vertex_indices\nend_header\n"
    "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
  g_auto(PlyMesh) tet = { 0 };
  g_auto(PlyMesh) quads = { 0 };

  ply_tetrahedron (&tet);
  /* a comment among the properties ends assimp's property list */
  bl_test_assert_same_and_remove (write_ply ("decline-comment.ply", &tet, &(PlyLayout) { .header_end = "comment late\nend_header\n" }),
               FALSE);
  /* a comment assimp takes for an element */
  bl_test_assert_same_and_remove (write_ply ("decline-texture.ply", &tet, &(PlyLayout) { .preamble = "comment TextureFile a.png\n" }), FALSE);
  /* "\r\n" line ends, two spaces, a tab */
  bl_test_assert_same_and_remove (write_ply ("decline-crlf.ply", &tet, &(PlyLayout) { .header_end = "end_header\r\n" }), FALSE);
  bl_test_assert_same_and_remove (write_ply ("decline-tab.ply", &tet, &(PlyLayout) { .preamble = "comment\ta tab\n" }), FALSE);
  /* an element after the faces */
  bl_test_assert_same_and_remove (write_ply ("decline-element.ply", &tet, &(PlyLayout) { .header_end = "element edge 0\n"
                                                                                    "property int vertex1\n"
                                                                                    "end_header\n" }), FALSE);
  /* ASCII */
  bl_test_assert_same_and_remove (write_bytes ("decline-ascii.ply", ascii, -1), FALSE);

  /* the first byte after the header is '\n': assimp drops it (and reads
   * every later value a byte early) */
  {
    g_auto(PlyMesh) nl = { 0 };

    ply_tetrahedron (&nl);
    /* 10 as a little-endian int: its first byte is '\n' */
    g_array_index (nl.points, double, 0) = 10;
    {
      g_autofree char *path = write_ply ("decline-newline.ply", &nl, &(PlyLayout) { .coord = "int" });
      GError *error = bl_test_compare_paths (path, unit_scale, FALSE);

      /* what assimp makes of it is its own affair: the same either way */
      g_clear_error (&error);
      g_unlink (path);
    }
  }

  /* a pentagon: assimp cuts it into ears after a projection */
  ply_mesh_init (&quads);
  ply_point (&quads, 0, 0, 0);
  ply_point (&quads, 1, 0, 0);
  ply_point (&quads, 1, 1, 0);
  ply_point (&quads, 0, 1, 0);
  ply_point (&quads, 0.5, 0.5, 1);
  ply_point (&quads, 0.5, 1.5, 0);
  ply_face (&quads, 4, 0, 3, 2, 1);
  ply_face (&quads, 3, 0, 1, 4);
  ply_face (&quads, 5, 1, 2, 5, 3, 4);
  bl_test_assert_same_and_remove (write_ply ("decline-polygons.ply", &quads, &(PlyLayout) { 0 }), FALSE);
}

static void
test_refused (void)
{
  g_auto(PlyMesh) tet = { 0 };
  g_auto(PlyMesh) bad = { 0 };

  ply_tetrahedron (&tet);

  /* an index past the vertices, and a negative one (an int read as
   * unsigned): both readers refuse them */
  ply_tetrahedron (&bad);
  g_array_index (bad.indices, gint64, 7) = 4;
  assert_both_refuse (write_ply ("range.ply", &bad, &(PlyLayout) { 0 }), "face 2 refers to vertex 4, "
                      "but the file has only 4 vertices");
  g_array_index (bad.indices, gint64, 7) = -1;
  assert_both_refuse (write_ply ("range-negative.ply", &bad, &(PlyLayout) { 0 }), "refers to vertex 4294967295");
  assert_both_refuse (write_ply ("range-short.ply", &bad, &(PlyLayout) { .index = "short", .big_endian = TRUE }),
                      "refers to vertex 4294967295");

  /* NaN and infinity (a double too large for a float) */
  g_array_index (bad.indices, gint64, 7) = 2;
  g_array_index (bad.points, double, 4) = NAN;
  assert_both_refuse (write_ply ("nan.ply", &bad, &(PlyLayout) { 0 }), "not a finite number");
  g_array_index (bad.points, double, 4) = 1e300;
  assert_both_refuse (write_ply ("huge.ply", &bad, &(PlyLayout) { .coord = "double" }), "not a finite number");

  /* cut short: in the last face, among the faces, among the vertices,
   * right after the header (assimp would read on into stale bytes) */
  assert_refused (write_ply ("cut-1.ply", &tet, &(PlyLayout) { .cut = 1 }),
                  "it ends inside face 3 of the 4 its header announces: the file is cut short");
  assert_refused (write_ply ("cut-20.ply", &tet, &(PlyLayout) { .cut = 20 }), "the file is cut short");
  assert_refused (write_ply ("cut-40.ply", &tet, &(PlyLayout) { .cut = 40 }),
                  "its header announces 4 vertices and 4 faces, which take at least 68 bytes after "
                  "the header, but only 60 follow it: the file is cut short");
  assert_refused (write_ply ("cut-all.ply", &tet, &(PlyLayout) { .cut = 48 + 4 * 13 }), "but only 0 follow it");

  /* a header that announces far more than the file holds: refused at
   * once, nothing allocated for it; over the 20 million vertices this
   * reader takes, left to assimp, which refuses it too */
  {
    static const char lies[] =
      "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\n"
      "property float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\n"
      "end_header\n\1\0\0\0";
    static const char less[] =
      "ply\nformat binary_little_endian 1.0\nelement vertex 19000000\nproperty float x\n"
      "property float y\nproperty float z\nelement face 19000000\nproperty list uchar int vertex_indices\n"
      "end_header\n\1\0\0\0";
    g_autofree char *path = write_bytes ("lies.ply", lies, sizeof lies - 1);
    g_autoptr(GError) error = NULL;
    g_autoptr(BlMesh) mesh = bl_mesh_new_from_file (path, unit_scale, NULL, FALSE, &error);

    g_assert_null (mesh);
    g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
    g_unlink (path);
    assert_refused (write_bytes ("lies-less.ply", less, sizeof less - 1), "announces 19000000 vertices and "
                    "19000000 faces, which take at least 323000000 bytes after the header, but only 4 follow it");
  }
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("ballast-test-mesh-ply-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/core/mesh/native-ply/same-mesh", test_same_mesh);
  g_test_add_func ("/core/mesh/native-ply/same-torus", test_same_torus);
  g_test_add_func ("/core/mesh/native-ply/quads", test_quads);
  g_test_add_func ("/core/mesh/native-ply/declined", test_declined);
  g_test_add_func ("/core/mesh/native-ply/refused", test_refused);

  ret = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
