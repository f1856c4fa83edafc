/* bl-cli-heap.h: the heap of ballast-cli, grown ahead of its use in huge
 * pages (bl-cli-heap.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sets how ballast-cli's malloc works, before anything is allocated:
 * blocks of up to 4 MiB from the heap rather than mapped one by one, one
 * heap for every thread, and bl_cli_heap_reserve (256 MiB). */
void  bl_cli_heap_init    (void);

/* The most room bl_cli_heap_reserve takes ahead; past it the heap grows
 * in small pages.  On the benchmarks' machine, a virtual machine whose
 * host backs fresh memory lazily, clearing fresh huge pages cost more
 * than faulting in small ones once there were 2 GiB of them: the export
 * of the 400,000-link world spent 4.0-5.8 s of system time with 2 GiB
 * taken ahead, 1.6-2.1 s with 1 GiB, 2.0-2.6 s with none
 * (docs/BENCHMARKS.md). */
#define BL_CLI_HEAP_MAX_ROOM ((gsize) 1 << 30)

/* Makes the heap hold `room` bytes of address space ahead of its use (at
 * most half the machine's memory and BL_CLI_HEAP_MAX_ROOM), given huge
 * pages where the system gives them on request (transparent_hugepage
 * "madvise").  Only address space is taken: pages are given as they are
 * first touched.  Asking for less than before does nothing.  Returns the
 * room the heap now keeps ahead (0 where the system has no such heap). */
gsize bl_cli_heap_reserve (gsize room);

/* The room to reserve before an editable load of a file of `file_size`
 * bytes: about what it holds at its peak, 20 bytes a byte of the file
 * (docs/BENCHMARKS.md).  A read-only load reserves nothing past the first
 * 256 MiB: on the virtual machine the benchmarks run on, a fresh huge
 * page can cost twice what 2 MiB of small ones do, and the million-link
 * inspect spent 2 s more of system time with 2 GiB of them. */
gsize bl_cli_heap_room_for_editable (gsize file_size);

G_END_DECLS
