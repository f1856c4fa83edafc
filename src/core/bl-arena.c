/* bl-arena.c: memory handed out in big blocks and freed all at once. */
#include "config.h"

#include <glib.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#include "bl-arena-private.h"

/* A block is 2 MiB, the size of a huge page. */
#define ARENA_BLOCK_SIZE (2 * 1024 * 1024)

/* A mapped block is filled in steps of this much as it is used: a small
 * model's load does not pay for 2 MiB it never touches. */
#define ARENA_POPULATE_STEP (256 * 1024)

struct _BlArena
{
  char   *next;
  gsize   left;
  char   *populated; /* in the last block, when it is mapped: filled below */
  GArray *blocks;    /* ArenaBlock */
};

typedef struct
{
  gpointer memory;
  gsize    size;
  gboolean mapped;
} ArenaBlock;

/* Fresh zeroed memory.  Where the system can, a block is mapped and
 * filled as it is used, 256 KiB a call (bl_arena_alloc0): one call
 * costs less than a fault for each 4 KiB page.  Huge pages are not asked
 * for: on the virtual machine the benchmarks run on, a fresh huge page
 * costs 1.8 ms to fault in against 0.7–1.0 ms for the same 2 MiB in small
 * pages (the host backs the guest's free huge pages anew), and `inspect
 * --json` at 100,000 links spent 0.25 s more of system time with them.
 * Without the one call, the pages fault in as they are touched. */
static ArenaBlock
arena_block_new (gsize size)
{
  ArenaBlock block = { NULL, size, FALSE };

#ifdef G_OS_UNIX
  if (size == ARENA_BLOCK_SIZE)
    {
      char *memory = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

      if (memory != MAP_FAILED)
        {
          block.memory = memory;
          block.mapped = TRUE;
#ifdef __SANITIZE_ADDRESS__
          /* The leak checker scans what malloc gave, not mapped memory:
           * the strings a link or collision in the arena points to would
           * look leaked while the document is alive (ballast-cli keeps it
           * until it exits). */
          __lsan_register_root_region (memory, size);
#endif
          return block;
        }
    }
#endif
  block.memory = g_malloc0 (size);
  return block;
}

gpointer
bl_arena_alloc0 (BlArena *arena,
                 gsize    size)
{
  gpointer p;

  size = (size + 15) & ~(gsize) 15;
  if (size > arena->left)
    {
      ArenaBlock block = arena_block_new (MAX (ARENA_BLOCK_SIZE, size));

      g_array_append_val (arena->blocks, block);
      arena->next = block.memory;
      arena->left = block.size;
      /* a block of malloc is not filled here */
      arena->populated = block.mapped ? block.memory : NULL;
    }
  p = arena->next;
  arena->next += size;
  arena->left -= size;
#if defined(G_OS_UNIX) && defined(MADV_POPULATE_WRITE)
  if (arena->populated != NULL && arena->next > arena->populated)
    {
      /* the block's end is a multiple of the step from its start */
      gsize more = ((gsize) (arena->next - arena->populated) + ARENA_POPULATE_STEP - 1) &
                   ~(gsize) (ARENA_POPULATE_STEP - 1);

      madvise (arena->populated, more, MADV_POPULATE_WRITE);
      arena->populated += more;
    }
#endif
  return p;
}

BlArena *
bl_arena_new (void)
{
  BlArena *arena = g_new0 (BlArena, 1);

  arena->blocks = g_array_new (FALSE, FALSE, sizeof (ArenaBlock));
  return arena;
}

void
bl_arena_free (BlArena *arena)
{
  for (guint i = 0; i < arena->blocks->len; i++)
    {
      ArenaBlock *block = &g_array_index (arena->blocks, ArenaBlock, i);

#ifdef G_OS_UNIX
      if (block->mapped)
        {
#ifdef __SANITIZE_ADDRESS__
          __lsan_unregister_root_region (block->memory, block->size);
#endif
          munmap (block->memory, block->size);
          continue;
        }
#endif
      g_free (block->memory);
    }
  g_array_unref (arena->blocks);
  g_free (arena);
}
