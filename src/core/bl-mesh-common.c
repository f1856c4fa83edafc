/* bl-mesh-common.c: what every mesh file uses: the error domain, the
 * submesh arrays, memory on huge pages and the timings. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bl-mesh-private.h"

G_DEFINE_QUARK (bl-mesh-error-quark, bl_mesh_error)

BlMeshTimings bl_mesh_timings;

void
bl_mesh_get_timings (BlMeshTimings *out)
{
  g_return_if_fail (out != NULL);
  *out = bl_mesh_timings;
}

void
bl_mesh_submesh_clear (gpointer data)
{
  BlSubmesh *s = data;

  g_clear_pointer (&s->name, g_free);
  g_clear_pointer (&s->mesh_name, g_free);
  if (s->borrowed)
    {
      s->vertices = NULL;
      s->indices = NULL;
    }
  g_clear_pointer (&s->vertices, g_free);
  g_clear_pointer (&s->indices, g_free);
}

void
bl_mesh_reverse_winding (guint32 *indices,
                         guint    n_triangles)
{
  for (guint t = 0; t < n_triangles; t++)
    {
      guint32 tmp = indices[3 * t + 1];

      indices[3 * t + 1] = indices[3 * t + 2];
      indices[3 * t + 2] = tmp;
    }
}

/* Zeroed anonymous memory of SIZE bytes (rounded up to a 2 MiB multiple)
 * on huge-page boundaries, asked for huge pages: lookups and first writes
 * land anywhere in a large table or array, and on 4 KiB pages nearly
 * every one would also miss the TLB or fault (a page fault costs
 * microseconds in a virtual machine).  Under 2 MiB, ordinary pages: a
 * huge page would hold 2 MiB for a small mesh as long as it is cached
 * (50 tetrahedra took 100 MB).  POPULATE fills it at once, for memory
 * that is all written anyway.  Free with munmap (p, *SIZE).  NULL when it
 * cannot be mapped. */
gpointer
bl_mesh_huge_alloc (gsize   *size,
                    gboolean populate)
{
  gsize want = bl_mesh_round_up (MAX (*size, 1), BL_MESH_HUGE_PAGE);
  char *raw, *aligned;

  if (*size < BL_MESH_HUGE_PAGE)
    {
      want = bl_mesh_round_up (MAX (*size, 1), sysconf (_SC_PAGESIZE));
      aligned = mmap (NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (aligned == MAP_FAILED)
        return NULL;
    }
  else
    {
      raw = mmap (NULL, want + BL_MESH_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (raw == MAP_FAILED)
        return NULL;
      aligned = (char *) (((guintptr) raw + BL_MESH_HUGE_PAGE - 1) & ~(guintptr) (BL_MESH_HUGE_PAGE - 1));
      if (aligned > raw)
        munmap (raw, aligned - raw);
      if (aligned + want < raw + want + BL_MESH_HUGE_PAGE)
        munmap (aligned + want, (raw + want + BL_MESH_HUGE_PAGE) - (aligned + want));
#ifdef MADV_HUGEPAGE
      madvise (aligned, want, MADV_HUGEPAGE);
#endif
    }
#ifdef MADV_POPULATE_WRITE
  if (populate)
    madvise (aligned, want, MADV_POPULATE_WRITE);
#endif
  *size = want;
  return aligned;
}

void
bl_mesh_huge_free (gpointer memory,
                   gsize    size)
{
  if (memory != NULL)
    munmap (memory, size);
}

gboolean
bl_mesh_path_has_extension (const char *path,
                            const char *ext)
{
  const char *dot = strrchr (path, '.');

  return dot != NULL && g_ascii_strcasecmp (dot + 1, ext) == 0;
}

gssize
bl_mesh_read_full (int     fd,
                   guint8 *buffer,
                   gsize   size)
{
  gsize done = 0;

  while (done < size)
    {
      gssize n = read (fd, buffer + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += n;
    }
  return done;
}

BlNativeStatus
bl_mesh_native_fail (GError    **error,
                     const char *path,
                     const char *format,
                     ...)
{
  g_autofree char *why = NULL;
  va_list args;

  va_start (args, format);
  why = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD, "Cannot load mesh “%s”: %s", path, why);
  return BL_NATIVE_FAILED;
}
