/* bl-file-private.h: reading a model file without hanging on a FIFO or a device. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The largest SDF (or model.config) file Ballast reads: 256 MiB.  Real
 * models are kilobytes; libxml2's tree of a file this size already takes
 * gigabytes. */
#define BL_FILE_MAX_SIZE ((gsize) 256 * 1024 * 1024)

/* The largest SDF file the read-only load (inspect, check) streams: 1 GiB,
 * as for a mesh file.  That load never holds the file's bytes and its
 * memory grows with the links read (about 5 kB a link, 9 bytes per byte of
 * a generated world), not with a tree of the whole file, so a world of a
 * million links (600 MB) is read; an editable load of such a file would
 * need about 15 GB and keeps BL_FILE_MAX_SIZE. */
#define BL_FILE_MAX_STREAM_SIZE ((gsize) 1 << 30)

/* Reads a whole regular file of at most max_size bytes.  The file is opened
 * without blocking, so a FIFO (named pipe) with no writer, a device or a
 * socket put in place of a model file is refused at once instead of
 * hanging; so is a directory, and a file of /proc or /sys.  Errors are in G_FILE_ERROR and name the
 * path.  *contents is NUL-terminated; free it with g_free. */
gboolean bl_file_read (const char  *path,
                       gsize        max_size,
                       char       **contents,
                       gsize       *length,
                       GError     **error);

/* The same checks, then the open descriptor (blocking reads) for reading
 * in pieces; *size is the file's size when opened.  -1 with an error. */
int      bl_file_open (const char  *path,
                       gsize        max_size,
                       gsize       *size,
                       GError     **error);

/* What makes PATH (links followed) a file no model may name, without
 * opening it: "a named pipe (FIFO)", "a socket", "a device" or "a file of
 * the kernel (/proc or /sys)" (a folder there too); NULL for a regular
 * file or a folder elsewhere, and for a path that does not exist.  The
 * same kinds bl_file_open refuses on the open descriptor. */
const char *bl_file_describe_special (const char *path);

G_END_DECLS
