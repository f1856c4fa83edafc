/* bl-cli-heap.c: ballast-cli's heap, grown ahead of its use in huge
 * pages.
 *
 * A large model's tree, links, map and JSON touch hundreds of megabytes
 * of fresh memory: one page fault every 4 KiB in small pages (225,000 for
 * `export` of the 100,000-link benchmark world), one every 2 MiB in huge
 * ones.  The heap grows by brk, and a part of it given MADV_HUGEPAGE keeps
 * the flag, but what brk adds later does not get it: so the heap is made
 * to take its room ahead once (M_TOP_PAD, the space kept free at its top),
 * as much as the editable load of a file will need up to a gigabyte
 * (BL_CLI_HEAP_MAX_ROOM), and that room is advised at once. */
#include "config.h"

#include <malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bl-cli-heap.h"

#define HUGE_PAGE ((gsize) 2 << 20)

/* glibc's default of M_MMAP_MAX */
#define DEFAULT_MMAP_MAX 65536

void
bl_cli_heap_init (void)
{
#ifdef M_MMAP_THRESHOLD
  /* Blocks of up to 4 MiB (the pieces a file is read and parsed in,
   * libxml2's input buffers, a small file's filtered copy) from the heap,
   * where the pages of one freed serve the next, not mapped fresh each
   * time and unmapped: an export of the 1,000-link benchmark world takes
   * 270 fewer page faults of 3,800, about 0.7 ms of its 21 ms. */
  mallopt (M_MMAP_THRESHOLD, 4 << 20);
#endif
#ifdef M_ARENA_MAX
  /* The editable load's second thread (the map for edits) allocates from
   * the same heap, in its huge pages, not from an arena of 64 MiB
   * mappings of its own in small ones. */
  mallopt (M_ARENA_MAX, 1);
#endif
  bl_cli_heap_reserve (256 << 20);
}

gsize
bl_cli_heap_reserve (gsize room)
{
#if defined(M_TOP_PAD) && defined(M_MMAP_MAX) && defined(MADV_HUGEPAGE)
  static gsize reserved;
  static guintptr heap_start;
  long pages = sysconf (_SC_PHYS_PAGES), page_size = sysconf (_SC_PAGESIZE);
  void *volatile grow;  /* volatile: a compiler may leave out a malloc freed unused */
  guintptr start, end;
  gboolean grown;

  if (pages > 0 && page_size > 0)
    room = MIN (room, (gsize) pages * (gsize) page_size / 2);
  room = MIN (room, BL_CLI_HEAP_MAX_ROOM);
  if (room <= reserved)
    return reserved;

  if (heap_start == 0)
    heap_start = (guintptr) sbrk (0);
  /* A block of `room` from the heap itself (no mapping for it), taken
   * without a pad: the heap grows by it; freed once the pad is `room`, it
   * is left as the free room at the heap's top. */
  if (mallopt (M_TOP_PAD, 0) == 0)
    return 0;  /* not glibc's malloc (a sanitizer's) */
  mallopt (M_MMAP_MAX, 0);
#ifdef M_PERTURB
  /* not filled (MALLOC_PERTURB_, which the tests set): that would touch
   * every page of the room */
  mallopt (M_PERTURB, 0);
#endif
  grow = malloc (room);
  grown = grow != NULL;
  mallopt (M_TOP_PAD, (int) (grown ? room : reserved));
  free (grow);
  mallopt (M_MMAP_MAX, DEFAULT_MMAP_MAX);
#ifdef M_PERTURB
  if (g_getenv ("MALLOC_PERTURB_") != NULL)
    mallopt (M_PERTURB, atoi (g_getenv ("MALLOC_PERTURB_")));
#endif
  if (!grown)
    return reserved;

  start = (heap_start + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1);
  end = (guintptr) sbrk (0) & ~(guintptr) (HUGE_PAGE - 1);
  if (end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
  reserved = room;
  return reserved;
#else
  (void) room;
  return 0;
#endif
}

gsize
bl_cli_heap_room_for_editable (gsize file_size)
{
  return file_size * 20;
}
