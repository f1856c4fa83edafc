/* bl-sdf-reader.c: an SDF file read into models: <sdf>, <world>, <model>
 * and <include>, the frames of each scope, placement and merge-includes. */
#include "config.h"

#include <string.h>

#include "bl-loader-private.h"
#include "bl-merge-placement-private.h"
#include "bl-model-private.h"
#include "bl-number.h"
#include "bl-xml-private.h"

#define MAX_MODEL_DEPTH 64

/* The world's <gravity> (read by bl_fluid_get_gravity when needed):
 * one that cannot be read is an error, not the default used silently. */
static void
check_gravity (BlLoader   *loader,
               xmlNode    *world)
{
  xmlNode *gravity = bl_xml_first_child (world, "gravity");
  g_autofree char *text = NULL;
  double v[3];

  if (gravity == NULL || bl_number_parse_vector (bl_sdf_text_peek (gravity), v, 3))
    return;

  text = g_strstrip (bl_xml_dup_text (gravity));
  bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "number", loader->path, bl_xml_get_line (gravity),
                      "world/gravity", "<gravity> holds “%s”; expected 3 finite numbers; "
                      "the default 0 0 −9.8 is used instead", text);
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */

static const char *
nonempty (const char *s)
{
  return (s != NULL && *s != '\0') ? s : NULL;
}
static char *
scoped (BlModel    *model,
        const char *name)
{
  return g_strconcat (model->scoped_name, "::", name, NULL);
}


static BlModel *parse_model (BlLoader      *loader,
                             xmlNode       *node,
                             BlModel       *parent,
                             const char    *file,
                             const char    *name_override,
                             int            depth,
                             BlFrameScope **scope_out);

static BlPose place_model (BlLoader     *loader,
                           BlModel      *model,
                           xmlNode      *include,
                           const char   *include_file,
                           BlFrameScope *scope,
                           BlPose        raw);

static BlModel *parse_include (BlLoader      *loader,
                               xmlNode       *node,
                               BlModel       *parent,
                               const char    *file,
                               int            depth,
                               BlFrameScope **scope_out,
                               xmlNode      **pose_node_out,
                               gboolean      *has_static,
                               gboolean      *is_static);

/* One child element of a model as parse_model reads it: its own, or one
 * an <include merge="true"> brought from another file (libsdformat 15's
 * merge-include: no model scope of its own, names unchanged). */
typedef struct
{
  xmlNode    *node;
  const char *file;          /* the file the element is in */
  const char *proxy;         /* merged: the frame standing for the included
                              * model's __model__, else NULL */
  char       *merged_frame;  /* a merge <include> (node): the name of its proxy frame */
  xmlNode    *pose_node;     /* merged_frame: the <include>'s <pose>, else the model's */
  const char *pose_file;     /* the file pose_node is in */
  xmlNode    *included;      /* merged_frame: the included <model> */
  const char *included_file; /* the file it is in */
} ModelChild;

/* An <include> with a <placement_frame> needs a <pose> to place it at:
 * TRUE, with the include's failure recorded, when it has none
 * (libsdformat refuses it too). */
static gboolean
placement_without_pose (BlLoader   *loader,
                        xmlNode    *include,
                        const char *file,
                        const char *owner)
{
  xmlNode *placement = bl_xml_first_child (include, "placement_frame");

  if (placement == NULL || bl_xml_first_child (include, "pose") != NULL)
    return FALSE;
  bl_include_failed (loader, include, "include", file, bl_xml_get_line (placement), owner, NULL, NULL,
                     "<include> has a <placement_frame> but no <pose> to place it at "
                     "(libsdformat refuses it too); left out");
  return TRUE;
}

/* Whether a model or include NODE in MODEL (at DEPTH) would nest too
 * deep; says so when it would. */
static gboolean
too_deep (BlLoader   *loader,
          xmlNode    *node,
          const char *file,
          BlModel    *model,
          int         depth)
{
  if (depth + 1 <= MAX_MODEL_DEPTH)
    return FALSE;
  bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "depth", file, bl_xml_get_line (node),
                      model->scoped_name,
                      "models are nested more than %d deep; the deeper ones are not loaded",
                      MAX_MODEL_DEPTH);
  return TRUE;
}

static gboolean
is_merge_include (xmlNode *node)
{
  g_autofree char *merge = NULL;
  gboolean value = FALSE;

  if (!bl_xml_is_element (node, "include"))
    return FALSE;
  merge = bl_xml_dup_attribute (node, "merge");
  return merge != NULL && bl_sdf_parse_bool (merge, &value) && value;
}

static void collect_model_children (BlLoader    *loader,
                                    BlModel     *model,
                                    xmlNode     *node,
                                    const char  *file,
                                    const char  *proxy,
                                    int          depth,
                                    GArray      *out,
                                    gboolean     own);

/* An <include merge="true">: a proxy frame "_merged__NAME__model__" placed
 * where the included model would be (the include's <pose>, else the
 * model's, relative to __model__ unless it says otherwise), then the
 * included model's own children, whose __model__ (or empty relative_to,
 * attached_to) now means the proxy frame. */
static void
expand_merge_include (BlLoader    *loader,
                      BlModel     *model,
                      xmlNode     *include,
                      const char  *file,
                      const char  *proxy,
                      int          depth,
                      GArray      *out)
{
  xmlNode *name_node = bl_xml_first_child (include, "name");
  g_autofree char *name = NULL;
  const char *sdf_path;
  xmlNode *included;
  ModelChild item = { include, file, proxy, NULL, NULL, file, NULL, NULL };

  if (too_deep (loader, include, file, model, depth))
    return;

  if (placement_without_pose (loader, include, file, model->scoped_name))
    return;

  if (!bl_include_load (loader, include, file, model->scoped_name, TRUE, &sdf_path, &included))
    return;

  if (name_node != NULL)
    name = g_strstrip (bl_xml_dup_text (name_node));
  if (name == NULL || *name == '\0')
    {
      g_free (name);
      name = bl_xml_dup_attribute (included, "name");
    }
  item.merged_frame = g_strdup_printf ("_merged__%s__model__", name != NULL ? name : "");
  item.included = included;
  item.included_file = sdf_path;
  item.pose_node = bl_xml_first_child (include, "pose");
  if (item.pose_node == NULL)
    {
      item.pose_node = bl_xml_first_child (included, "pose");
      item.pose_file = sdf_path;
    }
  g_array_append_val (out, item);

  g_ptr_array_add (loader->include_stack, g_strdup (sdf_path));
  collect_model_children (loader, model, included, sdf_path, item.merged_frame, depth + 1, out, FALSE);
  g_ptr_array_remove_index (loader->include_stack, loader->include_stack->len - 1);
}

/* The element children of node into out, merge-includes expanded.  When
 * node is the model's own element (own), the same walk keeps its
 * <plugin>s in model->plugins, for the fluid checks' index. */
static void
collect_model_children (BlLoader    *loader,
                        BlModel     *model,
                        xmlNode     *node,
                        const char  *file,
                        const char  *proxy,
                        int          depth,
                        GArray      *out,
                        gboolean     own)
{
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      ModelChild item = { child, file, proxy, NULL, NULL, NULL, NULL, NULL };

      if (!bl_xml_is_element (child, NULL))
        continue;
      if (own && strcmp ((const char *) child->name, "plugin") == 0)
        {
          if (model->plugins == NULL)
            model->plugins = g_ptr_array_new ();
          g_ptr_array_add (model->plugins, child);
        }
      if (is_merge_include (child))
        expand_merge_include (loader, model, child, file, proxy, depth, out);
      else
        g_array_append_val (out, item);
    }
}

static void
model_child_clear (ModelChild *item)
{
  g_free (item->merged_frame);
}

static void
add_plugin_source (BlModel    *model,
                   xmlNode    *node,
                   const char *file)
{
  BlPluginSource source = { node, g_intern_string (file) };

  if (model->plugin_sources == NULL)
    model->plugin_sources = g_array_new (FALSE, FALSE, sizeof (BlPluginSource));
  g_array_append_val (model->plugin_sources, source);
}

/* In a merged element, the included model's frame is the proxy frame. */
static void
merge_frame_name (char       **name,
                  const char  *proxy,
                  gboolean     when_empty)
{
  if (proxy == NULL)
    return;
  if ((*name == NULL && when_empty) || (*name != NULL && strcmp (*name, "__model__") == 0))
    {
      g_free (*name);
      *name = g_strdup (proxy);
    }
}

/* A merged model with a placement frame: its proxy frame and the name
 * (//include/placement_frame, else the included model's @placement_frame). */
typedef struct
{
  BlFrameEntry *proxy;
  char         *frame;
  int           line;
} PlacedProxy;

static void
placed_proxy_clear (gpointer data)
{
  g_free (((PlacedProxy *) data)->frame);
}

/* The proxy frame of each merged model with a placement frame stands
 * where the include's pose puts the placement frame: its raw pose becomes
 * X_RPf · X_proxy,Pf⁻¹, X_proxy,Pf taken from the poses resolved as
 * written (the merged elements hang from the proxy), as libsdformat's
 * merge places it; then the scope is resolved again (its diagnostics were
 * said the first time). */
static void
place_merged_models (BlLoader     *loader,
                     BlModel      *model,
                     BlFrameScope *scope,
                     GArray       *placed)
{
  g_autoptr(GPtrArray) again = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);

  for (guint i = 0; i < placed->len; i++)
    {
      PlacedProxy *p = &g_array_index (placed, PlacedProxy, i);
      BlPose X_MPf;

      if (!bl_frame_scope_resolve (scope, p->frame, loader->diagnostics, model->scoped_name, p->line, &X_MPf))
        continue;
      p->proxy->raw = bl_pose_mul (p->proxy->raw,
                                   bl_pose_inverse (bl_pose_mul (bl_pose_inverse (p->proxy->pose), X_MPf)));
    }
  bl_frame_scope_unresolve (scope);
  bl_frame_scope_resolve_all (scope, again);
}

/* Once read, the name attribute of the main file's <model>, <link> or
 * <collision> NODE goes (bl_xml_name_is_read_once): parse_model drops
 * its model's, its links' and their collisions' as it goes, so that the
 * next models' memory is what they freed.  An editable load's source map
 * takes them as written. */
static void
drop_name (BlLoader *loader,
           xmlNode  *node)
{
  xmlAttr *name;

  if (node != NULL && node->doc == loader->xml && bl_xml_name_is_read_once (node) &&
      (name = bl_xml_written_attribute (node, "name")) != NULL)
    xmlRemoveProp (name);
}

static BlModel *
parse_model (BlLoader      *loader,
             xmlNode       *node,
             BlModel       *parent,
             const char    *file,
             const char    *name_override,
             int            depth,
             BlFrameScope **scope_out)
{
  g_autofree char *name_attr = bl_xml_dup_attribute (node, "name");
  const char *name = name_override != NULL ? name_override : name_attr;
  g_autofree char *base_dir = g_path_get_dirname (file);
  BlModel *model;
  BlFrameScope *scope;
  GPtrArray *pending_links;
  GPtrArray *pending_files;  /* the file of each pending link */
  GArray *children;          /* ModelChild */
  GArray *placed_proxies = NULL; /* PlacedProxy: merged models with a placement frame */
  xmlNode *static_node;

  model = g_new0 (BlModel, 1);
  model->name = g_strdup (name != NULL ? name : "");
  model->scoped_name = parent != NULL ? scoped (parent, model->name) : g_strdup (model->name);
  model->parent = parent;
  model->node = node;
  model->file = g_intern_string (file);
  model->line = bl_xml_get_line (node);
  model->links = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_sdf_arena_link_free);
  model->models = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_model_free);
  model->is_static = parent != NULL ? parent->is_static : FALSE;

  if (name == NULL || *name == '\0')
    bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "name", file, model->line, "model",
                        "a <model> has no name");

  static_node = bl_xml_first_child (node, "static");
  if (static_node != NULL)
    {
      g_autofree char *text = bl_xml_dup_text (static_node);
      gboolean value;

      if (bl_sdf_parse_bool (text, &value))
        model->is_static = value || model->is_static;
      else
        bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "number", file, bl_xml_get_line (static_node),
                            model->scoped_name, "<static> is “%s”; expected true or false",
                            g_strstrip (text));
    }

  {
    g_autofree char *version = node->doc != NULL && xmlDocGetRootElement (node->doc) != NULL
                               ? bl_xml_dup_attribute (xmlDocGetRootElement (node->doc), "version") : NULL;

    /* only the main file's <sdf version> is ever raised by an edit */
    scope = bl_frame_scope_new (model, bl_sdf_minor_version (version),
                                node->doc == loader->xml ? &loader->reading_changes_at : NULL);
  }
  pending_links = g_ptr_array_new ();
  pending_files = g_ptr_array_new ();
  children = g_array_new (FALSE, FALSE, sizeof (ModelChild));
  g_array_set_clear_func (children, (GDestroyNotify) model_child_clear);
  collect_model_children (loader, model, node, file, NULL, depth, children, TRUE);

  for (guint c = 0; c < children->len; c++)
    {
      ModelChild *item = &g_array_index (children, ModelChild, c);
      xmlNode *child = item->node;
      const char *child_file = item->file;
      g_auto(BlXmlString) name_owned = NULL;
      const char *child_name;
      BlPreparsedLink *ahead;
      BlFrameEntry *entry;

      if (item->merged_frame != NULL)
        {
          g_autofree char *owner = scoped (model, item->merged_frame);

          entry = bl_frame_scope_add (scope, BL_FRAME_FRAME, child, item->merged_frame, loader->diagnostics,
                                      model->scoped_name);
          if (entry == NULL)
            continue;
          entry->raw = bl_sdf_parse_pose (item->pose_node, owner, item->pose_file, loader->diagnostics,
                                          &entry->relative_to);
          if (entry->relative_to == NULL)
            entry->relative_to = g_strdup ("__model__");
          merge_frame_name (&entry->relative_to, item->proxy, FALSE);
          {
            xmlNode *element = bl_xml_first_child (child, "placement_frame");
            PlacedProxy placed = { entry, NULL, element != NULL ? bl_xml_get_line (element) : bl_xml_get_line (item->included) };

            placed.frame = element != NULL ? g_strstrip (bl_xml_dup_text (element))
                                           : bl_xml_dup_attribute (item->included, "placement_frame");
            if (placed.frame != NULL && *placed.frame != '\0' && strcmp (placed.frame, "__model__") != 0)
              {
                if (placed_proxies == NULL)
                  {
                    placed_proxies = g_array_new (FALSE, FALSE, sizeof (PlacedProxy));
                    g_array_set_clear_func (placed_proxies, placed_proxy_clear);
                  }
                g_array_append_val (placed_proxies, placed);
              }
            else
              g_free (placed.frame);
          }
          add_plugin_source (model, child, child_file);
          add_plugin_source (model, item->included, item->included_file);
          continue;
        }

      if (strcmp ((const char *) child->name, "model") == 0 ||
          strcmp ((const char *) child->name, "include") == 0)
        {
          BlFrameScope *nested_scope = NULL;
          xmlNode *pose_node = NULL;
          BlModel *nested;
          gboolean has_static = FALSE, is_static = FALSE;

          if (too_deep (loader, child, child_file, model, depth))
            continue;

          if (strcmp ((const char *) child->name, "model") == 0)
            {
              nested = parse_model (loader, child, model, child_file, NULL, depth + 1, &nested_scope);
              pose_node = bl_xml_first_child (child, "pose");
            }
          else
            {
              nested = parse_include (loader, child, model, child_file, depth + 1, &nested_scope,
                                      &pose_node, &has_static, &is_static);
            }

          if (nested == NULL)
            continue;

          if (has_static)
            nested->is_static = is_static;

          entry = bl_frame_scope_add (scope, BL_FRAME_MODEL, child, nested->name, loader->diagnostics,
                                      model->scoped_name);
          if (entry != NULL)
            {
              entry->nested = nested_scope;
              entry->raw = bl_sdf_parse_pose (pose_node, nested->scoped_name, child_file, loader->diagnostics,
                                              &entry->relative_to);
              entry->raw = place_model (loader, nested, child != nested->node ? child : NULL, child_file,
                                        nested_scope, entry->raw);
              merge_frame_name (&entry->relative_to, item->proxy, TRUE);
            }
          else
            {
              bl_frame_scope_free (nested_scope);
            }
          g_ptr_array_add (model->models, nested);
          continue;
        }

      if (loader->preparsed != NULL && child->_private != NULL)
        {
          /* read ahead, its attributes freed: the name read then */
          child_name = ((BlPreparsedLink *) child->_private)->link->name;
        }
      else
        child_name = bl_sdf_attribute_peek (child, "name", &name_owned);

      if (strcmp ((const char *) child->name, "link") == 0)
        {
          entry = bl_frame_scope_add (scope, BL_FRAME_LINK, child, child_name, loader->diagnostics, model->scoped_name);
          if (entry == NULL)
            continue;
          g_ptr_array_add (pending_links, entry);
          g_ptr_array_add (pending_files, (gpointer) child_file);
        }
      else if (strcmp ((const char *) child->name, "frame") == 0)
        {
          entry = bl_frame_scope_add (scope, BL_FRAME_FRAME, child, child_name, loader->diagnostics, model->scoped_name);
          if (entry == NULL)
            continue;
          entry->implicit_base = bl_xml_dup_attribute (child, "attached_to");
          if (entry->implicit_base != NULL && *entry->implicit_base == '\0')
            g_clear_pointer (&entry->implicit_base, g_free);
          merge_frame_name (&entry->implicit_base, item->proxy, TRUE);
        }
      else if (strcmp ((const char *) child->name, "joint") == 0)
        {
          xmlNode *child_link = bl_xml_first_child (child, "child");

          entry = bl_frame_scope_add (scope, BL_FRAME_JOINT, child, child_name, loader->diagnostics, model->scoped_name);
          if (entry == NULL)
            continue;
          if (child_link != NULL)
            {
              entry->implicit_base = g_strstrip (bl_xml_dup_text (child_link));
              if (strcmp (entry->implicit_base, "world") == 0)
                g_clear_pointer (&entry->implicit_base, g_free);
              merge_frame_name (&entry->implicit_base, item->proxy, FALSE);
            }
        }
      else
        {
          continue;
        }

      ahead = entry->kind == BL_FRAME_LINK && loader->preparsed != NULL ? child->_private : NULL;
      if (ahead != NULL && ahead->pose_read)
        {
          /* read ahead without a word to say, its element freed */
          entry->raw = ahead->pose;
          entry->relative_to = g_steal_pointer (&ahead->relative_to);
        }
      else
        {
          g_autofree char *owner = scoped (model, entry->name);

          entry->raw = bl_sdf_parse_pose (bl_xml_first_child (child, "pose"), owner, child_file, loader->diagnostics,
                                          &entry->relative_to);
        }
      /* a link's empty relative_to is its model's frame; a frame's and a
       * joint's are their attached_to and child, renamed above */
      merge_frame_name (&entry->relative_to, item->proxy, entry->kind == BL_FRAME_LINK);
    }

  g_array_unref (children);

  /* Poses of everything in this scope, then the links' contents. */
  bl_frame_scope_resolve_all (scope, loader->diagnostics);
  if (placed_proxies != NULL)
    {
      place_merged_models (loader, model, scope, placed_proxies);
      g_array_unref (placed_proxies);
    }

  for (guint i = 0; i < model->models->len; i++)
    {
      BlModel *nested = g_ptr_array_index (model->models, i);
      BlFrameEntry *entry = bl_frame_scope_lookup (scope, nested->name);

      if (entry != NULL && entry->kind == BL_FRAME_MODEL)
        nested->pose = entry->pose;
    }

  for (guint i = 0; i < pending_links->len; i++)
    {
      BlFrameEntry *entry = g_ptr_array_index (pending_links, i);
      const char *link_file = g_ptr_array_index (pending_files, i);
      BlLink *link = bl_stream_adopt_link (loader, model, entry->node);

      if (link != NULL)
        {
          if (strcmp (link->name, entry->name) != 0)
            bl_stream_rename_link (loader, link, entry->name);
          link->pose = entry->pose;
        }
      else if (link_file != file)
        {
          /* merged from an included file: its meshes are beside that file */
          g_autofree char *link_dir = g_path_get_dirname (link_file);

          link = bl_sdf_parse_link (loader, model, entry->node, entry->name);
          link->file = link_file;
          link->pose = entry->pose;
          bl_sdf_parse_link_collisions (loader, link, scope, link_dir);
          link->n_load_diagnostics = link->diagnostics->len;
          bl_sdf_parse_link_inertial (link);
        }
      else
        {
          link = bl_sdf_parse_link (loader, model, entry->node, entry->name);
          link->pose = entry->pose;
          bl_sdf_parse_link_collisions (loader, link, scope, base_dir);
          /* their names read, an editable load drops them */
          drop_name (loader, link->node);
          for (guint j = 0; j < link->collisions->len; j++)
            drop_name (loader, ((BlCollision *) g_ptr_array_index (link->collisions, j))->node);
          link->n_load_diagnostics = link->diagnostics->len;
          /* every link's inertial is read here, while its subtree is in
           * the cache (a read-only load's links read ahead, before their
           * subtrees were freed, too) */
          bl_sdf_parse_link_inertial (link);
        }
      g_ptr_array_add (model->links, link);
    }

  g_ptr_array_unref (pending_links);
  g_ptr_array_unref (pending_files);

  if (scope_out != NULL)
    {
      /* from now on only looked up, by the enclosing scope and placement */
      bl_frame_scope_freeze (scope);
      *scope_out = scope;
    }
  else
    bl_frame_scope_free (scope);

  drop_name (loader, node);
  return model;
}
static BlModel *
parse_include (BlLoader      *loader,
               xmlNode       *node,
               BlModel       *parent,
               const char    *file,
               int            depth,
               BlFrameScope **scope_out,
               xmlNode      **pose_node_out,
               gboolean      *has_static,
               gboolean      *is_static)
{
  g_autofree char *name = NULL;
  const char *owner = parent != NULL ? parent->scoped_name : "world";
  xmlNode *name_node = bl_xml_first_child (node, "name");
  xmlNode *static_node = bl_xml_first_child (node, "static");
  xmlNode *model_node;
  const char *sdf_path;
  BlModel *model;

  *pose_node_out = bl_xml_first_child (node, "pose");

  if (placement_without_pose (loader, node, file, owner))
    return NULL;

  if (!bl_include_load (loader, node, file, owner, FALSE, &sdf_path, &model_node) || model_node == NULL)
    return NULL;

  if (name_node != NULL)
    name = g_strstrip (bl_xml_dup_text (name_node));

  if (static_node != NULL)
    {
      g_autofree char *text = bl_xml_dup_text (static_node);

      *has_static = bl_sdf_parse_bool (text, is_static);
    }

  g_ptr_array_add (loader->include_stack, g_strdup (sdf_path));
  model = parse_model (loader, model_node, parent, sdf_path, nonempty (name), depth, scope_out);
  g_ptr_array_remove_index (loader->include_stack, loader->include_stack->len - 1);
  /* <include><plugin> is the included model's (libsdformat puts it there) */
  add_plugin_source (model, node, file);

  /* Without an <include><pose>, the included model keeps its own. */
  if (*pose_node_out == NULL)
    *pose_node_out = bl_xml_first_child (model_node, "pose");

  return model;
}

/* SDF 1.8's placement frame: //include/placement_frame, else
 * //model/@placement_frame of `model` (read into `scope`).  The model's
 * pose `raw` (X_RPf) then places that frame, not the model frame, and the
 * model frame is X_RM = X_RPf · X_MPf⁻¹, X_MPf resolved in the model's own
 * frames, as libsdformat's resolveModelPoseWithPlacementFrame computes it.
 * Without a placement frame, or when it cannot be resolved (an error in
 * the diagnostics), `raw` as it is. */
static BlPose
place_model (BlLoader     *loader,
             BlModel      *model,
             xmlNode      *include,
             const char   *include_file,
             BlFrameScope *scope,
             BlPose        raw)
{
  xmlNode *element = include != NULL ? bl_xml_first_child (include, "placement_frame") : NULL;
  g_autofree char *frame = NULL;
  const char *file = model->file;
  int line = model->line;
  BlPose X_MPf;

  if (element != NULL)
    {
      frame = g_strstrip (bl_xml_dup_text (element));
      file = include_file;
      line = bl_xml_get_line (element);
    }
  else if (model->node != NULL)
    {
      frame = bl_xml_dup_attribute (model->node, "placement_frame");
    }
  if (frame == NULL || *frame == '\0' || scope == NULL)
    return raw;

  if (strstr (frame, "::") == NULL && strcmp (frame, "__model__") != 0 &&
      bl_frame_scope_lookup (scope, frame) == NULL)
    {
      bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "frame", file, line, model->scoped_name,
                          "the placement frame “%s” is not a link, frame, joint or nested model of "
                          "“%s”; the model is placed by its own frame", frame, model->scoped_name);
      return raw;
    }
  if (!bl_frame_scope_resolve (scope, frame, loader->diagnostics, model->scoped_name, model->line, &X_MPf))
    return raw;
  return bl_pose_mul (raw, bl_pose_inverse (X_MPf));
}

static void merge_into_world (BlLoader    *loader,
                              xmlNode     *include,
                              const char  *file,
                              BlPose       placement);

/* The world's frames: its <frame>s and models, by name, so that a model's
 * or a frame's pose may be relative_to another (libsdformat's world pose
 * graph); "world" is the scope's own frame. */
typedef struct
{
  BlModel       stand_in;  /* names the scope in messages */
  BlFrameScope *scope;
  GPtrArray    *models;    /* BlModel* placed through the scope... */
  GPtrArray    *entries;   /* ...and their entries */
} WorldFrames;

/* "world" in a world's relative_to or attached_to is the world frame. */
static void
world_frame_name (char **name)
{
  if (*name != NULL && (**name == '\0' || strcmp (*name, "world") == 0))
    g_clear_pointer (name, g_free);
}

/* A <model> or <include> of the world, placed in PLACEMENT (the proxy
 * frame of a merge-include into the world, else identity), or with
 * FRAMES (the world's own children) a <frame> of the world, and models
 * whose pose is resolved through the world's frames once all are read. */
static void
add_world_child (BlLoader    *loader,
                 xmlNode     *item,
                 const char  *file,
                 BlPose       placement,
                 WorldFrames *frames)
{
  BlModel *model = NULL;
  BlFrameScope *scope = NULL;
  g_autofree char *relative_to = NULL;
  BlPose raw = BL_POSE_IDENTITY;

  if (bl_xml_is_element (item, "model"))
    {
      model = parse_model (loader, item, NULL, file, NULL, 0, &scope);
      raw = place_model (loader, model, NULL, file, scope,
                         bl_sdf_parse_pose (bl_xml_first_child (item, "pose"), model->scoped_name,
                                            file, loader->diagnostics, frames != NULL ? &relative_to : NULL));
    }
  else if (is_merge_include (item))
    {
      merge_into_world (loader, item, file, placement);
    }
  else if (bl_xml_is_element (item, "include"))
    {
      xmlNode *pose_node = NULL;
      gboolean has_static = FALSE, is_static = FALSE;

      model = parse_include (loader, item, NULL, file, 0, &scope, &pose_node,
                             &has_static, &is_static);
      if (model != NULL)
        {
          if (has_static)
            model->is_static = is_static;
          raw = place_model (loader, model, item, file, scope,
                             bl_sdf_parse_pose (pose_node, model->scoped_name, file, loader->diagnostics,
                                                frames != NULL ? &relative_to : NULL));
        }
    }
  else if (frames != NULL && bl_xml_is_element (item, "frame"))
    {
      g_autofree char *name = bl_xml_dup_attribute (item, "name");
      BlFrameEntry *entry = bl_frame_scope_add (frames->scope, BL_FRAME_FRAME, item, name,
                                                loader->diagnostics, "world");

      if (entry != NULL)
        {
          entry->implicit_base = bl_xml_dup_attribute (item, "attached_to");
          world_frame_name (&entry->implicit_base);
          entry->raw = bl_sdf_parse_pose (bl_xml_first_child (item, "pose"), entry->name, file,
                                          loader->diagnostics, &entry->relative_to);
          world_frame_name (&entry->relative_to);
        }
    }

  if (model == NULL)
    {
      bl_frame_scope_free (scope);
      return;
    }

  model->pose = bl_pose_mul (placement, raw);
  if (frames != NULL)
    {
      BlFrameEntry *entry = bl_frame_scope_add (frames->scope, BL_FRAME_MODEL, item, model->name,
                                                loader->diagnostics, "world");

      /* a second model of that name (an error) stays placed as written */
      if (entry != NULL)
        {
          entry->nested = g_steal_pointer (&scope);
          entry->raw = raw;
          entry->relative_to = g_steal_pointer (&relative_to);
          world_frame_name (&entry->relative_to);
          g_ptr_array_add (frames->models, model);
          g_ptr_array_add (frames->entries, entry);
        }
    }
  bl_frame_scope_free (scope);
  g_ptr_array_add (loader->models, model);
}

/* An <include merge="true"> directly in a <world>: as libsdformat 15, the
 * included model's models (and includes) become the world's, placed by its
 * proxy frame; its links cannot be (libsdformat refuses them too). */
static void
merge_into_world (BlLoader    *loader,
                  xmlNode     *include,
                  const char  *file,
                  BlPose       placement)
{
  xmlNode *pose_node = bl_xml_first_child (include, "pose");
  const char *pose_file = file;
  const char *sdf_path;
  xmlNode *included;
  BlPose proxy;
  guint first = loader->models->len;
  xmlNode *placement_node = bl_xml_first_child (include, "placement_frame");
  g_autofree char *placement_frame = NULL;

  if (placement_without_pose (loader, include, file, "world") ||
      !bl_include_load (loader, include, file, "world", TRUE, &sdf_path, &included))
    return;
  if (pose_node == NULL)
    {
      pose_node = bl_xml_first_child (included, "pose");
      pose_file = sdf_path;
    }
  proxy = bl_pose_mul (placement, bl_sdf_parse_pose (pose_node, "world", pose_file, loader->diagnostics, NULL));

  g_ptr_array_add (loader->include_stack, g_strdup (sdf_path));
  for (xmlNode *item = included->children; item != NULL; item = item->next)
    {
      if (bl_xml_is_element (item, "link"))
        {
          g_autofree char *name = bl_xml_dup_attribute (item, "name");

          bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "include", sdf_path, bl_xml_get_line (item),
                              "world", "<include merge=\"true\"> into a <world> cannot take the "
                              "included model's <link> “%s”: a world has no links of its own "
                              "(libsdformat refuses it too); left out", name != NULL ? name : "");
          continue;
        }
      add_world_child (loader, item, sdf_path, proxy, NULL);
    }
  g_ptr_array_remove_index (loader->include_stack, loader->include_stack->len - 1);

  /* the placement frame lands where the proxy frame was */
  placement_frame = placement_node != NULL ? g_strstrip (bl_xml_dup_text (placement_node))
                                           : bl_xml_dup_attribute (included, "placement_frame");
  if (placement_frame != NULL && *placement_frame != '\0' && strcmp (placement_frame, "__model__") != 0 &&
      !bl_merge_placement_apply (loader->models, first, proxy, placement_frame))
    bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "frame",
                        placement_node != NULL ? file : sdf_path,
                        bl_xml_get_line (placement_node != NULL ? placement_node : included), "world",
                        "the placement frame “%s” is not a model, nested model or link merged into "
                        "the world; the merged models are placed by the include's pose", placement_frame);
}

gboolean
bl_loader_read (BlLoader  *loader,
                int        fd,
                GError   **error)
{
  const char *data = NULL;
  gsize length = 0;
  xmlNode *root;

  if (loader->source != NULL)
    data = g_bytes_get_data (loader->source, &length);
  /* links, collisions and their names, freed with the document */
  loader->arena = bl_arena_new ();
  loader->mesh_collisions = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_sdf_arena_collision_free);
  if (loader->read_only)
    loader->preparsed = g_ptr_array_new ();
  else
    loader->left_out = g_array_new (FALSE, FALSE, sizeof (BlSourceRange));
  loader->include_stack = g_ptr_array_new_with_free_func (g_free);
  loader->base_dir = g_path_get_dirname (loader->path);
  loader->xml = bl_stream_read_xml (loader, data, length, fd, loader->path, loader->diagnostics,
                                    &loader->counts, FALSE, error);
  if (loader->xml == NULL)
    {
      return FALSE;
    }

  root = xmlDocGetRootElement (loader->xml);
  if (root != NULL && root->ns != NULL && strcmp ((const char *) root->name, "sdf") == 0)
    {
      /* "the root element is <sdf>, not <sdf>" said nothing */
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_NOT_SDF,
                   "%s:%d: the root element <sdf> is in the XML namespace “%s”; SDF's <sdf> is in "
                   "none: this is not an SDF file", loader->path, bl_xml_get_line (root),
                   root->ns->href != NULL ? (const char *) root->ns->href : "");
      return FALSE;
    }
  if (root == NULL || !bl_xml_is_element (root, "sdf"))
    {
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_NOT_SDF,
                   "%s:%d: the root element is <%s>, not <sdf>: this is not an SDF file",
                   loader->path, bl_xml_get_line (root), root != NULL ? (const char *) root->name : "");
      return FALSE;
    }

  loader->sdf_version = bl_xml_dup_attribute (root, "version");
  loader->sdf_minor = bl_sdf_minor_version (loader->sdf_version);
  if (loader->sdf_version == NULL)
    {
      bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_WARNING, "version", loader->path, bl_xml_get_line (root),
                          "sdf", "<sdf> has no version attribute; read as 1.12");
    }
  else
    {
      static const char * const known[] = {
        "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12",
      };
      gboolean ok = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (known); i++)
        ok |= strcmp (loader->sdf_version, known[i]) == 0;
      if (!ok)
        bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_WARNING, "version", loader->path, bl_xml_get_line (root),
                            "sdf", "SDF version “%s” is not one of 1.4 to 1.12; read as 1.12",
                            loader->sdf_version);
    }

  g_ptr_array_add (loader->include_stack, g_strdup (loader->path));

  for (xmlNode *child = root->children; child != NULL; child = child->next)
    {
      if (bl_xml_is_element (child, "world"))
        {
          if (loader->world == NULL)
            {
              loader->world = child;
              check_gravity (loader, child);
            }
          WorldFrames frames = { { 0 }, NULL, g_ptr_array_new (), g_ptr_array_new () };

          frames.stand_in.name = (char *) "world";
          frames.stand_in.scoped_name = (char *) "world";
          frames.stand_in.file = loader->path;
          frames.scope = bl_frame_scope_new (&frames.stand_in, loader->sdf_minor, &loader->reading_changes_at);
          for (xmlNode *item = child->children; item != NULL; item = item->next)
            add_world_child (loader, item, loader->path, BL_POSE_IDENTITY, &frames);
          bl_frame_scope_resolve_all (frames.scope, loader->diagnostics);
          for (guint i = 0; i < frames.models->len; i++)
            ((BlModel *) g_ptr_array_index (frames.models, i))->pose =
              ((BlFrameEntry *) g_ptr_array_index (frames.entries, i))->pose;
          bl_frame_scope_free (frames.scope);
          g_ptr_array_unref (frames.models);
          g_ptr_array_unref (frames.entries);
        }
      else if (bl_xml_is_element (child, "model"))
        {
          BlFrameScope *scope = NULL;
          BlModel *model = parse_model (loader, child, NULL, loader->path, NULL, 0, &scope);

          model->pose = place_model (loader, model, NULL, loader->path, scope,
                                     bl_sdf_parse_pose (bl_xml_first_child (child, "pose"), model->scoped_name,
                                                        loader->path, loader->diagnostics, NULL));
          bl_frame_scope_free (scope);
          g_ptr_array_add (loader->models, model);
        }
      else if (bl_xml_is_element (child, "include"))
        {
          /* libsdformat inserts the included model into <sdf> as a top model */
          if (!is_merge_include (child))
            add_world_child (loader, child, loader->path, BL_POSE_IDENTITY, NULL);
          else
            bl_include_failed (loader, child, "include", loader->path, bl_xml_get_line (child), "sdf", NULL, NULL,
                               "<include merge=\"true\"> directly in <sdf> has no model or world to merge "
                               "into (libsdformat refuses it too); not loaded");
        }
    }

  bl_include_group_failures (loader);

  if (loader->models->len == 0)
    bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_WARNING, "empty", loader->path, bl_xml_get_line (root),
                        "sdf", "the file has no <model>");

  return TRUE;
}

void
bl_loader_clear (BlLoader *loader)
{
  bl_stream_clear_preparsed (loader);
  g_clear_pointer (&loader->proto, bl_model_free);
  g_clear_pointer (&loader->include_stack, g_ptr_array_unref);
  g_clear_pointer (&loader->include_firsts, g_hash_table_unref);
  g_clear_pointer (&loader->include_diagnostic, g_hash_table_unref);
  g_clear_pointer (&loader->mesh_paths, g_hash_table_unref);
  g_clear_pointer (&loader->include_paths, g_hash_table_unref);
  g_clear_pointer (&loader->included_files, g_hash_table_unref);
  g_clear_pointer (&loader->included_lean, g_hash_table_unref);
  g_clear_pointer (&loader->base_dir, g_free);
  loader->link_tag = NULL;
  /* what the caller did not take: */
  g_clear_pointer (&loader->mesh_collisions, g_ptr_array_unref);
  g_clear_pointer (&loader->arena, bl_arena_free);
  g_clear_pointer (&loader->xml, xmlFreeDoc);
  g_clear_pointer (&loader->left_out, g_array_unref);
  g_clear_pointer (&loader->sdf_version, g_free);
}
