/* bl-document.c: the document: what a load made (bl-loader-private.h),
 * its links placed and computed, their reload after an edit, and the
 * source map that edits and saving go through. */
#include "config.h"

#include <gio/gio.h>
#include <libxml/parser.h>

#include "bl-document-private.h"
#include "bl-file-private.h"
#include "bl-fluid-check-private.h"
#include "bl-loader-private.h"
#include "bl-model-private.h"
#include "bl-resolve-private.h"
#include "bl-sample-resources.h"
#include "bl-xml-private.h"

struct _BlDocument
{
  GObject     parent_instance;

  char       *path;
  char       *sdf_version;    /* as <sdf version> reads now (an edit may raise it) */
  char       *loaded_sdf_version;  /* as the file declared it when read */
  GBytes     *source;
  xmlDoc     *xml;
  GPtrArray  *included_xml;   /* xmlDoc* of <include>d files */
  GPtrArray  *models;         /* BlModel*, top level */
  GPtrArray  *links;          /* BlLink*, borrowed from the models */
  GHashTable *links_by_name;  /* scoped name → BlLink* */
  GPtrArray  *diagnostics;    /* BlDiagnostic* not tied to a link */
  GPtrArray  *include_failures; /* BlIncludeFailure* */
  GPtrArray  *mesh_refusals;  /* BlMeshRefusal* */
  xmlNode    *world;          /* the first <world>, or NULL */
  gboolean    read_only;      /* BL_DOCUMENT_LOAD_READ_ONLY */
  BlArena    *arena;          /* links, collisions and their names */
  GArray     *left_out;       /* BlSourceRange of the stand-ins in xml, for the map */
  GPtrArray  *mesh_collisions; /* BlCollision* in the arena that hold heap memory */
  guint       sdf_minor;      /* 10 for "1.10"; 12 when absent or unknown */
  guint       reading_changes_at; /* the file reads otherwise from SDF 1.this (0: never) */
  BlSourceMapJob *map_job;    /* editable: the source map, once started */
};

G_DEFINE_FINAL_TYPE (BlDocument, bl_document, G_TYPE_OBJECT)

enum {
  LINK_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Document                                                                  */

static void
collect_links (BlDocument *self,
               BlModel    *model,
               BlPose      parent_world)
{
  model->world_pose = bl_pose_mul (parent_world, model->pose);

  for (guint i = 0; i < model->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (model->links, i);

      link->world_pose = bl_pose_mul (model->world_pose, link->pose);
      g_ptr_array_add (self->links, link);
      if (!g_hash_table_insert (self->links_by_name, link->scoped_name, link))
        bl_diagnostics_add (self->diagnostics, BL_SEVERITY_WARNING, "name", model->file, link->line,
                            link->scoped_name, "two links are named “%s”", link->scoped_name);
    }

  for (guint i = 0; i < model->models->len; i++)
    collect_links (self, g_ptr_array_index (model->models, i), model->world_pose);
}

static void
report_version_features (BlDocument *self,
                         BlLink     *link)
{
  guint version = self->sdf_minor;
  gboolean needs_1_11 = link->auto_inertia || link->has_density;

  for (guint i = 0; i < link->collisions->len && !needs_1_11; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);

      needs_1_11 = collision->has_density || collision->geometry.type == BL_GEOMETRY_CONE;
    }

  if (needs_1_11 && version < 11)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "version", link->file, link->line,
                        link->scoped_name,
                        "uses automatic inertia, densities or cones (SDF 1.11) in a file that "
                        "declares %s; read as libsdformat 15 does", self->sdf_version);
  else if (link->has_added_mass && version < 10)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "version", link->file, link->line,
                        link->scoped_name,
                        "has <fluid_added_mass> (SDF 1.10) in a file that declares %s; "
                        "read as libsdformat 15 does", self->sdf_version);
}

/* Computes LINK; unless PARSED (a load: the reader read each link's
 * inertial as it read the link), after reading its inertial again. */
static void
compute_link (BlDocument *self,
              BlLink     *link,
              gboolean    parsed)
{
  if (!parsed)
    bl_sdf_parse_link_inertial (link);
  report_version_features (self, link);
  bl_link_compute_mass_properties (link);
  bl_fluid_check_link (G_OBJECT (self), bl_document_get_models (self),
                       bl_document_get_world (self), link);
}

/* Reads the file (bl-loader-private.h), keeps what the load made, then
 * places and computes every link.  MAX_LINKS: bl_document_new_from_file_limited. */
static gboolean
bl_document_load (BlDocument  *self,
                  int          fd,
                  guint        max_links,
                  GError     **error)
{
  BlLoader loader = {
    .counts = { .max_links = max_links },
    .path = self->path,
    .source = self->source,
    .read_only = self->read_only,
    .models = self->models,
    .diagnostics = self->diagnostics,
    .included_xml = self->included_xml,
    .include_failures = self->include_failures,
    .mesh_refusals = self->mesh_refusals,
  };
  gboolean loaded = bl_loader_read (&loader, fd, error);

  self->xml = g_steal_pointer (&loader.xml);
  self->arena = g_steal_pointer (&loader.arena);
  self->left_out = g_steal_pointer (&loader.left_out);
  self->mesh_collisions = g_steal_pointer (&loader.mesh_collisions);
  self->world = loader.world;
  self->sdf_version = g_steal_pointer (&loader.sdf_version);
  self->loaded_sdf_version = g_strdup (self->sdf_version);
  self->sdf_minor = loader.sdf_minor;
  self->reading_changes_at = loader.reading_changes_at;
  if (loaded && loader.counts.parts_refused)
    {
      /* an included file went past the caller's bound: the document as a
       * whole is refused, not shown without it */
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_PARTS,
                   "%s: more than %u models, collisions, frames, joints and plugins with its included files, the "
                   "most this load allows; the file is not read", self->path,
                   (guint) MIN ((guint64) max_links * BL_DOCUMENT_PARTS_PER_LINK, G_MAXUINT));
      loaded = FALSE;
    }
  else if (loaded && loader.counts.links_refused)
    {
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_LINKS,
                   "%s: more than %u links with its included files, the most this load allows; "
                   "the file is not read", self->path, max_links);
      loaded = FALSE;
    }
  if (!loaded)
    {
      bl_loader_clear (&loader);
      return FALSE;
    }

  bl_fluid_check_world (self->world, self->path, self->diagnostics);
  for (guint i = 0; i < self->models->len; i++)
    collect_links (self, g_ptr_array_index (self->models, i), BL_POSE_IDENTITY);

  for (guint i = 0; i < self->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (self->links, i);

      compute_link (self, link, TRUE);
    }

  bl_loader_clear (&loader);
  return TRUE;
}

static void
bl_document_finalize (GObject *object)
{
  BlDocument *self = (BlDocument *) object;

  g_clear_pointer (&self->map_job, bl_source_map_job_free);
  g_clear_pointer (&self->left_out, g_array_unref);
  g_clear_pointer (&self->links_by_name, g_hash_table_unref);
  g_clear_pointer (&self->links, g_ptr_array_unref);
  g_clear_pointer (&self->models, g_ptr_array_unref);
  /* after everything that lives in it */
  g_clear_pointer (&self->mesh_collisions, g_ptr_array_unref);
  g_clear_pointer (&self->arena, bl_arena_free);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->included_xml, g_ptr_array_unref);
  g_clear_pointer (&self->include_failures, g_ptr_array_unref);
  g_clear_pointer (&self->mesh_refusals, g_ptr_array_unref);
  g_clear_pointer (&self->xml, xmlFreeDoc);
  g_clear_pointer (&self->source, g_bytes_unref);
  g_free (self->sdf_version);
  g_free (self->loaded_sdf_version);
  g_free (self->path);

  G_OBJECT_CLASS (bl_document_parent_class)->finalize (object);
}

static void
bl_document_class_init (BlDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_document_finalize;

  /**
   * BlDocument::link-changed:
   * @link: (type gpointer): the BlLink whose values were recomputed
   */
  signals[LINK_CHANGED] =
    g_signal_new ("link-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
bl_document_init (BlDocument *self)
{
  self->models = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_model_free);
  self->links = g_ptr_array_new ();
  self->links_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);
  self->included_xml = g_ptr_array_new_with_free_func ((GDestroyNotify) xmlFreeDoc);
  self->include_failures = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_include_failure_free);
  self->mesh_refusals = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_mesh_refusal_free);
}

/* From bytes, or (bytes NULL) read from fd. */
static BlDocument *
bl_document_new_from_bytes (GBytes               *bytes,
                            int                   fd,
                            const char           *path,
                            BlDocumentLoadFlags   flags,
                            guint                 max_links,
                            GError              **error)
{
  g_autoptr(BlDocument) self = g_object_new (BL_TYPE_DOCUMENT, NULL);
  gboolean loaded;

  self->path = g_strdup (path);
  self->source = bytes != NULL ? g_bytes_ref (bytes) : NULL;
  self->read_only = (flags & BL_DOCUMENT_LOAD_READ_ONLY) != 0;

  loaded = bl_document_load (self, bytes != NULL ? -1 : fd, max_links, error);
  if (self->read_only)
    g_clear_pointer (&self->source, g_bytes_unref);
  if (!loaded)
    return NULL;

  if (!self->read_only)
    self->map_job = bl_source_map_job_new (self->xml, self->source, self->left_out, TRUE);
  return g_steal_pointer (&self);
}

BlDocument *
bl_document_new_from_file (const char  *path,
                           GError     **error)
{
  return bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_DEFAULT, error);
}

BlDocument *
bl_document_new_from_file_full (const char           *path,
                                BlDocumentLoadFlags   flags,
                                GError              **error)
{
  return bl_document_new_from_file_limited (path, flags, 0, error);
}

BlDocument *
bl_document_new_from_file_limited (const char           *path,
                                   BlDocumentLoadFlags   flags,
                                   guint                 max_links,
                                   GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) read_error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
                   "%s: is a directory, not an SDF file", path);
      return NULL;
    }

  if (flags & BL_DOCUMENT_LOAD_READ_ONLY)
    {
      /* Read in pieces as the parser goes: the bytes are never kept. */
      BlDocument *self;
      gsize size = 0;
      int fd = bl_file_open (path, BL_FILE_MAX_STREAM_SIZE, &size, &read_error);

      if (fd < 0)
        {
          g_set_error_literal (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ, read_error->message);
          return NULL;
        }
      self = bl_document_new_from_bytes (NULL, fd, path, flags, max_links, &read_error);
      close (fd);
      /* libxml2's push parser stops at the first error where the full
       * parse reports the last: read it again the usual way, so that the
       * message is the same whichever load met it (a file larger than
       * that load takes keeps the first error). */
      if (self == NULL && g_error_matches (read_error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_PARSE) &&
          size <= BL_FILE_MAX_SIZE)
        return bl_document_new_from_file_limited (path, flags & ~BL_DOCUMENT_LOAD_READ_ONLY, max_links, error);
      if (self == NULL)
        g_propagate_error (error, g_steal_pointer (&read_error));
      return self;
    }

  if (!bl_file_read (path, BL_FILE_MAX_SIZE, &contents, &length, &read_error))
    {
      /* GLib's message already names the file. */
      g_set_error_literal (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ, read_error->message);
      return NULL;
    }

  bytes = g_bytes_new_take (contents, length);

  return bl_document_new_from_bytes (bytes, -1, path, flags, max_links, error);
}

BlDocument *
bl_document_new_from_data (const char  *data,
                           gsize        length,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  bytes = g_bytes_new (data, length);
  return bl_document_new_from_bytes (bytes, -1, path, BL_DOCUMENT_LOAD_DEFAULT, 0, error);
}

GBytes *
bl_document_get_sample_bytes (void)
{
  /* Through the resource itself: a static library drops an object file
   * that nothing references, and its constructor with it. */
  return g_resource_lookup_data (bl_sample_get_resource (),
                                 "/app/ballast/Ballast/models/sample.sdf",
                                 G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
}

void
bl_document_set_max_links (guint max_links)
{
  bl_stream_set_max_links (max_links);
}

guint
bl_document_get_max_links (void)
{
  return bl_stream_get_max_links ();
}

BlDocument *
bl_document_new_sample (void)
{
  g_autoptr(GBytes) bytes = bl_document_get_sample_bytes ();
  g_autoptr(GError) error = NULL;
  BlDocument *self;

  g_assert (bytes != NULL);
  self = bl_document_new_from_bytes (bytes, -1, "sample.sdf", BL_DOCUMENT_LOAD_DEFAULT, 0, &error);
  g_assert_no_error (error);

  return self;
}

gboolean
bl_document_is_read_only (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), FALSE);
  return self->read_only;
}

const char *
bl_document_get_path (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->path;
}

const char *
bl_document_get_sdf_version (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->sdf_version;
}

xmlNode *
bl_document_get_world (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->world;
}

const char *
bl_document_get_loaded_sdf_version (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->loaded_sdf_version;
}

guint
bl_document_get_reading_changes_at (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), 0);
  return self->reading_changes_at;
}

GBytes *
bl_document_get_source (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->source;
}

xmlDoc *
bl_document_get_xml (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->xml;
}

GPtrArray *
bl_document_get_models (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->models;
}

GPtrArray *
bl_document_get_links (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->links;
}

BlLink *
bl_document_find_link (BlDocument *self,
                       const char *scoped_name)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (scoped_name != NULL, NULL);
  return g_hash_table_lookup (self->links_by_name, scoped_name);
}

BlCollision *
bl_document_find_collision (BlDocument *self,
                            const char *link_scoped_name,
                            const char *collision_name)
{
  BlLink *link = bl_document_find_link (self, link_scoped_name);

  if (link == NULL)
    return NULL;

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);

      if (strcmp (collision->name, collision_name) == 0)
        return collision;
    }

  return NULL;
}

GPtrArray *
bl_document_get_diagnostics (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->diagnostics;
}

GPtrArray *
bl_document_get_include_failures (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->include_failures;
}

GPtrArray *
bl_document_get_mesh_refusals (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->mesh_refusals;
}

GPtrArray *
bl_document_collect_diagnostics (BlDocument *self)
{
  GPtrArray *all;

  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);

  all = g_ptr_array_new ();
  for (guint i = 0; i < self->diagnostics->len; i++)
    g_ptr_array_add (all, g_ptr_array_index (self->diagnostics, i));
  for (guint i = 0; i < self->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (self->links, i);

      for (guint j = 0; j < link->diagnostics->len; j++)
        g_ptr_array_add (all, g_ptr_array_index (link->diagnostics, j));
    }

  return all;
}

gboolean
bl_document_has_errors (BlDocument *self)
{
  g_autoptr(GPtrArray) all = bl_document_collect_diagnostics (self);

  for (guint i = 0; i < all->len; i++)
    {
      BlDiagnostic *diagnostic = g_ptr_array_index (all, i);

      if (diagnostic->severity == BL_SEVERITY_ERROR)
        return TRUE;
    }

  return FALSE;
}

/* Follows <sdf version> in the tree; TRUE when it changed. */
static gboolean
refresh_sdf_version (BlDocument *self)
{
  xmlNode *root = xmlDocGetRootElement (self->xml);
  g_autofree char *now = root != NULL ? bl_xml_dup_attribute (root, "version") : NULL;

  if (g_strcmp0 (now, self->sdf_version) == 0)
    return FALSE;

  g_free (self->sdf_version);
  self->sdf_version = g_steal_pointer (&now);
  self->sdf_minor = bl_sdf_minor_version (self->sdf_version);
  return TRUE;
}

void
bl_document_reload_link (BlDocument *self,
                         BlLink     *link)
{
  g_return_if_fail (BL_IS_DOCUMENT (self));
  g_return_if_fail (link != NULL);
  g_return_if_fail (!self->read_only);

  /* An edit that raised <sdf version> (or its undo) changes what every
   * link's version note says, not only this link's. */
  if (refresh_sdf_version (self))
    {
      for (guint i = 0; i < self->links->len; i++)
        {
          BlLink *other = g_ptr_array_index (self->links, i);

          if (other != link)
            {
              compute_link (self, other, FALSE);
              g_signal_emit (self, signals[LINK_CHANGED], 0, other);
            }
        }
    }

  compute_link (self, link, FALSE);
  g_signal_emit (self, signals[LINK_CHANGED], 0, link);
}

BlSourceMap *
bl_document_get_source_map (BlDocument  *self,
                            GError     **error)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);

  if (self->map_job == NULL)
    self->map_job = bl_source_map_job_new (self->xml, self->source, self->left_out, FALSE);
  return bl_source_map_job_get (self->map_job, error);
}

