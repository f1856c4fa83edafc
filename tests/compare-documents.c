/* compare-documents.c: the full and the read-only load of one file, compared
 * (tests/test-readonly.c and fuzz/fuzz-readonly.c). */
#include "config.h"

#include <string.h>

#include "bl-fluid.h"
#include "compare-documents.h"

/* Bitwise, so that NaN equals NaN and −0 differs from 0. */
static void
assert_same_doubles (const double *a,
                     const double *b,
                     gsize         n,
                     const char   *what,
                     const char   *link)
{
  if (memcmp (a, b, n * sizeof (double)) != 0)
    g_error ("%s: %s differs between the full and the read-only load", link, what);
}

static void
assert_same_diagnostics (GPtrArray *a,
                         GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      BlDiagnostic *x = g_ptr_array_index (a, i);
      BlDiagnostic *y = g_ptr_array_index (b, i);

      g_assert_cmpint (x->severity, ==, y->severity);
      g_assert_cmpstr (x->code, ==, y->code);
      g_assert_cmpstr (x->file, ==, y->file);
      g_assert_cmpint (x->line, ==, y->line);
      g_assert_cmpstr (x->element, ==, y->element);
      g_assert_cmpstr (x->message, ==, y->message);
    }
}

void
bl_test_assert_same_documents (BlDocument *full,
                               BlDocument *lean)
{
  GPtrArray *a = bl_document_get_links (full);
  GPtrArray *b = bl_document_get_links (lean);
  g_autoptr(GPtrArray) diag_a = bl_document_collect_diagnostics (full);
  g_autoptr(GPtrArray) diag_b = bl_document_collect_diagnostics (lean);

  g_assert_cmpstr (bl_document_get_sdf_version (full), ==, bl_document_get_sdf_version (lean));
  g_assert_cmpuint (bl_document_get_models (full)->len, ==, bl_document_get_models (lean)->len);

  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      BlLink *x = g_ptr_array_index (a, i);
      BlLink *y = g_ptr_array_index (b, i);
      const BlMassProperties *p = &x->props, *q = &y->props;

      g_assert_cmpstr (x->scoped_name, ==, y->scoped_name);
      g_assert_cmpint (x->line, ==, y->line);
      g_assert_cmpint (x->inertial_node != NULL, ==, y->inertial_node != NULL);
      g_assert_cmpint (x->added_mass_node != NULL, ==, y->added_mass_node != NULL);
      g_assert_cmpint (x->auto_inertia, ==, y->auto_inertia);
      g_assert_cmpint (x->has_added_mass, ==, y->has_added_mass);
      assert_same_doubles (x->added_mass, y->added_mass, 21, "added_mass", x->scoped_name);
      assert_same_doubles (&x->pose.p.x, &y->pose.p.x, 7, "pose", x->scoped_name);
      assert_same_doubles (&p->mass, &q->mass, 1, "mass", x->scoped_name);
      assert_same_doubles (&p->com.x, &q->com.x, 3, "com", x->scoped_name);
      assert_same_doubles (&p->inertia.m[0][0], &q->inertia.m[0][0], 9, "inertia", x->scoped_name);
      assert_same_doubles (p->principal_moments, q->principal_moments, 3, "principal moments", x->scoped_name);
      assert_same_doubles (&p->principal_axes.m[0][0], &q->principal_axes.m[0][0], 9, "principal axes", x->scoped_name);
      assert_same_doubles (p->equivalent_ellipsoid, q->equivalent_ellipsoid, 3, "ellipsoid", x->scoped_name);
      assert_same_doubles (&p->volume, &q->volume, 1, "volume", x->scoped_name);
      {
        BlMat6 mx = bl_link_spatial_inertia (x), my = bl_link_spatial_inertia (y);

        assert_same_doubles (&mx.m[0][0], &my.m[0][0], 36, "M_RB", x->scoped_name);
      }
      g_assert_cmpint (p->valid, ==, q->valid);
      g_assert_cmpint (p->resolved, ==, q->resolved);

      g_assert_cmpuint (x->collisions->len, ==, y->collisions->len);
      for (guint j = 0; j < x->collisions->len; j++)
        {
          BlCollision *c = g_ptr_array_index (x->collisions, j);
          BlCollision *d = g_ptr_array_index (y->collisions, j);

          g_assert_cmpstr (c->path, ==, d->path);
          g_assert_cmpint (c->line, ==, d->line);
          g_assert_cmpint (c->geometry.type, ==, d->geometry.type);
          g_assert_cmpint (c->contributes, ==, d->contributes);
          assert_same_doubles (&c->pose.p.x, &d->pose.p.x, 7, "collision pose", c->path);
          assert_same_doubles (&c->inertial.mass, &d->inertial.mass, 1, "collision mass", c->path);
          assert_same_doubles (&c->volume, &d->volume, 1, "collision volume", c->path);
          g_assert_cmpstr (c->geometry.resolved_path, ==, d->geometry.resolved_path);
        }
    }

  assert_same_diagnostics (diag_a, diag_b);

  /* what the world gives the buoyancy report: gravity and the fluid */
  {
    BlVec3 ga = bl_fluid_get_gravity (full, NULL), gb = bl_fluid_get_gravity (lean, NULL);
    BlWorldFluid fa, fb;

    assert_same_doubles (&ga.x, &gb.x, 3, "gravity", "world");
    g_assert_cmpint (bl_fluid_get_world_fluid (full, &fa), ==, bl_fluid_get_world_fluid (lean, &fb));
    g_assert_cmpint (fa.kind, ==, fb.kind);
    assert_same_doubles (&fa.density, &fb.density, 1, "fluid density", "world");
    g_assert_cmpint (fa.line, ==, fb.line);
    g_assert_cmpstr (fa.text, ==, fb.text);
    bl_world_fluid_clear (&fa);
    bl_world_fluid_clear (&fb);
  }
}
