/* bl-arena-private.h: memory handed out in big blocks and freed all at once. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* For many small things that die together.  Blocks are 2 MiB, larger for
 * a larger request; where the system can, a block is mapped and filled
 * 256 KiB at a time as it is used.  Not thread-safe: one thread allocates at a time. */
typedef struct _BlArena BlArena;

BlArena  *bl_arena_new    (void);
/* Frees every block, and with them everything the arena handed out. */
void      bl_arena_free   (BlArena *arena);
/* `size` zeroed bytes, aligned to 16, that live until bl_arena_free. */
gpointer  bl_arena_alloc0 (BlArena *arena,
                           gsize    size);

G_END_DECLS
