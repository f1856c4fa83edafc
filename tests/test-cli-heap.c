/* test-cli-heap.c: ballast-cli's heap takes its room ahead of its use,
 * in huge pages (src/cli/bl-cli-heap.c).
 *
 * After bl_cli_heap_reserve (room), the heap's end (sbrk (0)) lies at
 * least `room` past the memory in use, advised MADV_HUGEPAGE (VmFlags
 * "hg" in /proc/self/smaps), and allocations of that much in blocks of
 * the heap (below the 4 MiB that are mapped) land in it without moving
 * its end.  Under a sanitizer's malloc there is no such heap and the call
 * says so by returning 0. */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "bl-cli-heap.h"
#include "smaps.h"

#define MiB ((gsize) 1 << 20)

static gboolean
advised_huge (guintptr address)
{
  g_autofree char *flags = smaps_field_at ((const void *) address, "VmFlags");
  g_auto(GStrv) words = NULL;

  g_assert_nonnull (flags);
  words = g_strsplit_set (flags, " ", -1);
  return g_strv_contains ((const char * const *) words, "hg");
}

static void
test_reserve (void)
{
  gsize room;
  guintptr end;
  GPtrArray *blocks = g_ptr_array_new_with_free_func (free);

  bl_cli_heap_init ();
  room = bl_cli_heap_reserve (512 * MiB);
#ifdef __SANITIZE_ADDRESS__
  g_assert_cmpuint (room, ==, 0);
  g_ptr_array_unref (blocks);
  return;
#endif
  g_assert_cmpuint (room, ==, MIN (512 * MiB, (gsize) sysconf (_SC_PHYS_PAGES) * (gsize) sysconf (_SC_PAGESIZE) / 2));
  /* asking for less keeps what was given */
  g_assert_cmpuint (bl_cli_heap_reserve (300 * MiB), ==, room);

  end = (guintptr) sbrk (0);
  /* the room taken ahead: blocks of 1 MiB, three quarters of it, fill it
   * without the heap growing, every one of them in huge pages */
  for (gsize taken = 0; taken < room / 4 * 3; taken += MiB)
    {
      char *block = malloc (MiB);

      g_assert_nonnull (block);
      g_ptr_array_add (blocks, block);
      g_assert_cmpuint ((guintptr) block + MiB, <=, end);
      if (g_file_test ("/sys/kernel/mm/transparent_hugepage/enabled", G_FILE_TEST_EXISTS) &&
          ((guintptr) block & (2 * MiB - 1)) == 0)
        g_assert_true (advised_huge ((guintptr) block));
    }
  g_assert_cmpuint ((guintptr) sbrk (0), ==, end);
  g_ptr_array_unref (blocks);

  /* never more than BL_CLI_HEAP_MAX_ROOM (M_TOP_PAD, an int, holds it) */
  g_assert_cmpuint (bl_cli_heap_reserve (G_MAXSIZE / 4), <=, BL_CLI_HEAP_MAX_ROOM);
  g_assert_cmpuint (BL_CLI_HEAP_MAX_ROOM, <=, G_MAXINT);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/heap/reserve", test_reserve);
  return g_test_run ();
}
