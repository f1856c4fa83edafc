/* bl-mesh-loader.h: the mesh cache read off the caller's thread, one read per mesh at a time. */
#pragma once

#include <gio/gio.h>

#include "bl-mesh.h"

G_BEGIN_DECLS

/* bl_mesh_cache_lookup in GTask's thread pool: the file is read (and its
 * result or failure cached, its unit-density mass properties and health
 * computed) in a worker thread, and CALLBACK runs in the
 * thread-default main context of the caller, so a mesh whose import hangs
 * until the time limit never blocks that context.  Requests for the same
 * file and options while one is being read wait for that read instead of
 * starting another (a hanging mesh shared by many links occupies one
 * thread and one import child).  A cancelled request still completes when
 * the read does, with G_IO_ERROR_CANCELLED. */
void     bl_mesh_cache_lookup_async  (const char          *path,
                                      BlVec3               scale,
                                      const char          *submesh,
                                      gboolean             center,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
/* A new reference to the mesh, or NULL with ERROR (the lookup's error, or
 * G_IO_ERROR_CANCELLED). */
BlMesh  *bl_mesh_cache_lookup_finish (GAsyncResult        *result,
                                      GError             **error);
/* Reads under way (requests that share a read count once). */
guint    bl_mesh_cache_get_n_reading (void);

G_END_DECLS
