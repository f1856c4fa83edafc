/* bl-frame-graph.c: the frame graph of a model scope: registration, and
 * poses resolved through relative_to/attached_to chains. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bl-frame-graph-private.h"
#include "bl-xml-private.h"

struct _BlFrameScope
{
  GHashTable *frames;        /* name → BlFrameEntry*; NULL once frozen */
  BlFrameEntry **sorted;     /* frozen: the entries by name (strcmp) */
  guint       n_sorted;
  BlModel    *model;
  const char *file;          /* the model's */
  guint       sdf_minor;     /* of the file the model is in, as libsdformat's OriginalVersion */
  guint      *changes_at;    /* or NULL: see bl_frame_scope_new */
};

/* A name read as it is only below SDF 1.minor. */
static void
reading_changes_at (BlFrameScope *scope,
                    guint         minor)
{
  if (scope->changes_at != NULL && (*scope->changes_at == 0 || minor < *scope->changes_at))
    *scope->changes_at = minor;
}

static void
frame_entry_free (BlFrameEntry *entry)
{
  g_free (entry->relative_to);
  g_free (entry->implicit_base);
  g_free (entry);
}

static void
frame_entry_free_full (gpointer data)
{
  BlFrameEntry *entry = data;

  if (entry->nested != NULL)
    bl_frame_scope_free (entry->nested);
  frame_entry_free (entry);
}

BlFrameScope *
bl_frame_scope_new (BlModel *model,
                    guint    sdf_minor,
                    guint   *changes_at)
{
  BlFrameScope *scope = g_new0 (BlFrameScope, 1);

  scope->frames = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, frame_entry_free_full);
  scope->model = model;
  scope->file = model->file;
  scope->sdf_minor = sdf_minor;
  scope->changes_at = changes_at;

  return scope;
}

void
bl_frame_scope_free (BlFrameScope *scope)
{
  if (scope == NULL)
    return;
  if (scope->frames != NULL)
    g_hash_table_unref (scope->frames);
  for (guint i = 0; i < scope->n_sorted; i++)
    frame_entry_free_full (scope->sorted[i]);
  g_free (scope->sorted);
  g_free (scope);
}

static int
compare_entry_names (gconstpointer a,
                     gconstpointer b)
{
  return strcmp ((*(BlFrameEntry * const *) a)->name, (*(BlFrameEntry * const *) b)->name);
}

static int
compare_name_with_entry (gconstpointer key,
                         gconstpointer member)
{
  return strcmp (key, (*(BlFrameEntry * const *) member)->name);
}

void
bl_frame_scope_freeze (BlFrameScope *scope)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_return_if_fail (scope->frames != NULL);

  scope->n_sorted = g_hash_table_size (scope->frames);
  scope->sorted = g_new (BlFrameEntry *, MAX (scope->n_sorted, 1));
  g_hash_table_iter_init (&iter, scope->frames);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      BlFrameEntry *entry = value;

      g_warn_if_fail (entry->state == BL_FRAME_RESOLVED);
      /* only a resolution reads them */
      g_clear_pointer (&entry->relative_to, g_free);
      g_clear_pointer (&entry->implicit_base, g_free);
      scope->sorted[n++] = entry;
      g_hash_table_iter_steal (&iter);
    }
  g_clear_pointer (&scope->frames, g_hash_table_unref);
  qsort (scope->sorted, n, sizeof (BlFrameEntry *), compare_entry_names);
}

/* The entry named `name`, frozen or not. */
static BlFrameEntry *
scope_find (BlFrameScope *scope,
            const char   *name)
{
  BlFrameEntry **found;

  if (scope->frames != NULL)
    return g_hash_table_lookup (scope->frames, name);
  found = bsearch (name, scope->sorted, scope->n_sorted, sizeof (BlFrameEntry *), compare_name_with_entry);
  return found != NULL ? *found : NULL;
}


/* The name libsdformat gives an element whose name another kind of
 * element of the model already has, in files before SDF 1.7 (Model.cc):
 * NAME_link, NAME_joint or NAME_frame, or with 0, 1… after it. */
static char *
rename_for_old_version (BlFrameScope *scope,
                        BlFrameKind   kind,
                        const char   *name)
{
  const char *suffix = kind == BL_FRAME_LINK ? "_link" : kind == BL_FRAME_JOINT ? "_joint" : "_frame";
  char *renamed = g_strconcat (name, suffix, NULL);

  for (guint i = 0; g_hash_table_contains (scope->frames, renamed); i++)
    {
      g_free (renamed);
      renamed = g_strdup_printf ("%s%s%u", name, suffix, i);
    }
  return renamed;
}

BlFrameEntry *
bl_frame_scope_add (BlFrameScope *scope,
                    BlFrameKind   kind,
                    xmlNode      *node,
                    const char   *name,
                    GPtrArray    *diagnostics,
                    const char   *owner)
{
  g_autofree char *renamed = NULL;
  BlFrameEntry *entry;
  BlFrameEntry *other;

  g_return_val_if_fail (scope->frames != NULL, NULL);

  if (name == NULL || *name == '\0')
    {
      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "name", scope->file, bl_xml_get_line (node), owner,
                          "<%s> has no name", (const char *) node->name);
      return NULL;
    }
  /* "::" in names is SDF 1.7's flattened form of nested models
   * (<link name="M1::L1">, <frame name="M1::__model__">): libsdformat
   * refuses it from 1.8 only. */
  if (strcmp (name, "__model__") == 0 || (strstr (name, "::") != NULL && scope->sdf_minor >= 8))
    {
      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "name", scope->file, bl_xml_get_line (node), owner,
                          "“%s” is a reserved name for a <%s>", name, (const char *) node->name);
      return NULL;
    }
  if (strstr (name, "::") != NULL)
    reading_changes_at (scope, 8);
  if (strcmp (name, "world") == 0)
    {
      /* libsdformat reports the name as reserved and loads the element */
      bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "name", scope->file, bl_xml_get_line (node), owner,
                          "a <%s> named “world”: “world” is reserved for the world frame (a joint's "
                          "<parent>world</parent> still means the world); read as libsdformat reads it",
                          (const char *) node->name);
    }
  other = g_hash_table_lookup (scope->frames, name);
  /* libsdformat registers models first and renames the others: a link,
   * joint or frame named like a model before it is renamed too (in a world
   * before SDF 1.7, a <frame> named like a model) */
  if (other != NULL && scope->sdf_minor < 7 && other->kind != kind && kind != BL_FRAME_MODEL)
    {
      renamed = rename_for_old_version (scope, kind, name);
      reading_changes_at (scope, 7);
      bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "name", scope->file, bl_xml_get_line (node), owner,
                          "a <%s> named “%s” like a <%s> before it: renamed “%s”, as libsdformat "
                          "renames it in files before SDF 1.7 (from 1.7 on, an error)",
                          (const char *) node->name, name, (const char *) other->node->name, renamed);
      name = renamed;
    }
  else if (other != NULL)
    {
      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "name", scope->file, bl_xml_get_line (node), owner,
                          "another frame of this model is already named “%s”", name);
      return NULL;
    }

  {
    gsize size = strlen (name) + 1;

    entry = g_malloc0 (sizeof (BlFrameEntry) + size);
    memcpy (entry + 1, name, size);
  }
  entry->kind = kind;
  entry->name = (const char *) (entry + 1);
  entry->node = node;
  entry->line = bl_xml_get_line (node);
  g_hash_table_insert (scope->frames, (gpointer) entry->name, entry);

  return entry;
}

/* "model::frame", for its messages (made for every frame placed: joined,
 * not formatted) */
static char *
frame_entry_owner (BlFrameScope *scope,
                   BlFrameEntry *entry)
{
  return scope->model->scoped_name != NULL
    ? g_strconcat (scope->model->scoped_name, "::", entry->name, NULL)
    : g_strdup (entry->name);
}

/* The entry of this scope that entry's pose is written relative to (for
 * "m::f", the nested model m), or NULL: none, itself or unknown. */
static BlFrameEntry *
frame_entry_base (BlFrameScope *scope,
                  BlFrameEntry *entry)
{
  const char *base = entry->relative_to != NULL ? entry->relative_to : entry->implicit_base;
  const char *sep;
  BlFrameEntry *found;

  if (base == NULL || strcmp (base, entry->name) == 0)
    return NULL;

  sep = strstr (base, "::");
  if (sep != NULL)
    {
      g_autofree char *head = g_strndup (base, sep - base);

      found = scope_find (scope, head);
      return found != NULL && found->kind == BL_FRAME_MODEL ? found : NULL;
    }

  return scope_find (scope, base);
}

/* Settles entry once its base is resolved (or is the entry that closes a
 * cycle): X_MF = X_MB · raw. */
static void
frame_entry_finish (BlFrameScope *scope,
                    BlFrameEntry *entry,
                    GPtrArray    *diagnostics)
{
  const char *base = entry->relative_to != NULL ? entry->relative_to : entry->implicit_base;
  g_autofree char *owner = frame_entry_owner (scope, entry);
  BlPose base_pose = BL_POSE_IDENTITY;

  if (base != NULL && strcmp (base, entry->name) == 0)
    {
      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "frame-cycle", scope->file, entry->line, owner,
                          "“%s” is placed relative to itself; taken relative to the model frame",
                          entry->name);
    }
  else if (base != NULL)
    {
      if (!bl_frame_scope_resolve (scope, base, diagnostics, owner, entry->line, &base_pose))
        base_pose = BL_POSE_IDENTITY;
    }

  /* A cycle through "m::f" may already have settled this entry. */
  if (entry->state == BL_FRAME_RESOLVED)
    return;

  entry->pose = bl_pose_mul (base_pose, entry->raw);
  entry->state = BL_FRAME_RESOLVED;
}

/* Resolves entry and the chain of entries it is placed relative to, without
 * recursion: a chain is as long as the file makes it (tens of thousands of
 * frames), the stack is not. The chain is walked to its first resolved (or
 * unplaced) entry on an explicit stack, then settled back up; an entry met
 * again while still on the stack closes a cycle. */
static void
frame_entry_resolve (BlFrameScope *scope,
                     BlFrameEntry *start,
                     GPtrArray    *diagnostics)
{
  g_autoptr(GPtrArray) chain = NULL;

  if (start->state == BL_FRAME_RESOLVED)
    return;

  if (start->state == BL_FRAME_VISITING)
    {
      g_autofree char *owner = frame_entry_owner (scope, start);

      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "frame-cycle", scope->file, start->line, owner,
                          "the pose of “%s” is defined through a cycle of relative_to/attached_to "
                          "frames; taken relative to the model frame", start->name);
      start->pose = start->raw;
      start->state = BL_FRAME_RESOLVED;
      return;
    }

  /* placed relative to its model frame: no chain to walk */
  if (start->relative_to == NULL && start->implicit_base == NULL)
    {
      start->state = BL_FRAME_VISITING;
      frame_entry_finish (scope, start, diagnostics);
      return;
    }

  chain = g_ptr_array_new ();
  g_ptr_array_add (chain, start);
  while (chain->len > 0)
    {
      BlFrameEntry *entry = g_ptr_array_index (chain, chain->len - 1);

      if (entry->state == BL_FRAME_UNRESOLVED)
        {
          BlFrameEntry *base = frame_entry_base (scope, entry);

          entry->state = BL_FRAME_VISITING;
          if (base != NULL && base->state == BL_FRAME_UNRESOLVED)
            {
              g_ptr_array_add (chain, base);
              continue;
            }
        }

      /* its base is resolved, or on the chain (a cycle, reported by
       * bl_frame_scope_resolve), or not an entry of this scope */
      if (entry->state != BL_FRAME_RESOLVED)
        frame_entry_finish (scope, entry, diagnostics);
      g_ptr_array_set_size (chain, chain->len - 1);
    }
}

/* X_MF of the frame `name` in scope's model frame M. */
gboolean
bl_frame_scope_resolve (BlFrameScope *scope,
                        const char   *name,
                        GPtrArray    *diagnostics,
                        const char   *owner,
                        int           line,
                        BlPose       *pose)
{
  const char *sep;
  BlFrameEntry *entry;

  if (strcmp (name, "__model__") == 0)
    {
      *pose = BL_POSE_IDENTITY;
      return TRUE;
    }

  /* a flattened name of SDF 1.7 ("M1::L1") is the frame's whole name */
  sep = strstr (name, "::");
  if (sep != NULL && scope_find (scope, name) == NULL)
    {
      g_autofree char *head = g_strndup (name, sep - name);
      BlPose inner;

      entry = scope_find (scope, head);
      if (entry == NULL || entry->kind != BL_FRAME_MODEL)
        goto unknown;

      frame_entry_resolve (scope, entry, diagnostics);
      if (!bl_frame_scope_resolve (entry->nested, sep + 2, diagnostics, owner, line, &inner))
        return FALSE;

      *pose = bl_pose_mul (entry->pose, inner);
      return TRUE;
    }

  entry = scope_find (scope, name);
  if (entry == NULL)
    goto unknown;

  if (entry->state == BL_FRAME_VISITING)
    {
      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "frame-cycle", scope->file, line, owner,
                          "relative_to “%s” closes a cycle of frames; taken relative to the model frame",
                          name);
      return FALSE;
    }

  frame_entry_resolve (scope, entry, diagnostics);
  *pose = entry->pose;
  return TRUE;

unknown:
  bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "frame", scope->file, line, owner,
                      "unknown frame “%s” (not a link, frame, joint or nested model of “%s”); "
                      "taken relative to the model frame", name,
                      scope->model->scoped_name);
  return FALSE;
}

BlFrameEntry *
bl_frame_scope_lookup (BlFrameScope *scope,
                       const char   *name)
{
  return scope_find (scope, name);
}

void
bl_frame_scope_resolve_all (BlFrameScope *scope,
                            GPtrArray    *diagnostics)
{
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (scope->frames != NULL);

  g_hash_table_iter_init (&iter, scope->frames);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    frame_entry_resolve (scope, value, diagnostics);
}

void
bl_frame_scope_unresolve (BlFrameScope *scope)
{
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (scope->frames != NULL);

  g_hash_table_iter_init (&iter, scope->frames);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    ((BlFrameEntry *) value)->state = BL_FRAME_UNRESOLVED;
}
