/* bl-merge-placement.c: the placement frame of a merge-include into a
 * world (see the header). */
#include "config.h"

#include <string.h>

#include "bl-merge-placement-private.h"

static BlModel *
find_model (GPtrArray  *models,
            guint       first,
            const char *name)
{
  for (guint i = first; i < models->len; i++)
    {
      BlModel *model = g_ptr_array_index (models, i);

      if (g_strcmp0 (model->name, name) == 0)
        return model;
    }
  return NULL;
}

gboolean
bl_merge_placement_apply (GPtrArray  *models,
                          guint       first,
                          BlPose      proxy,
                          const char *frame)
{
  g_auto(GStrv) parts = g_strsplit (frame, "::", -1);
  BlModel *model;
  BlPose X_world_Pf, correction;
  guint n = g_strv_length (parts);

  g_return_val_if_fail (models != NULL && frame != NULL, FALSE);

  model = find_model (models, first, parts[0]);
  if (model == NULL)
    return FALSE;
  X_world_Pf = model->pose;
  for (guint i = 1; i < n; i++)
    {
      BlModel *nested = find_model (model->models, 0, parts[i]);

      if (nested != NULL)
        {
          X_world_Pf = bl_pose_mul (X_world_Pf, nested->pose);
          model = nested;
          continue;
        }
      if (i + 1 < n)
        return FALSE;
      for (guint j = 0; j < model->links->len; j++)
        {
          BlLink *link = g_ptr_array_index (model->links, j);

          if (strcmp (link->name, parts[i]) == 0)
            {
              X_world_Pf = bl_pose_mul (X_world_Pf, link->pose);
              model = NULL;
              break;
            }
        }
      if (model != NULL)
        return FALSE;
    }

  /* the frame moves from X_world_Pf to proxy: every merged model with it */
  correction = bl_pose_mul (proxy, bl_pose_inverse (X_world_Pf));
  for (guint i = first; i < models->len; i++)
    {
      BlModel *merged = g_ptr_array_index (models, i);

      merged->pose = bl_pose_mul (correction, merged->pose);
    }
  return TRUE;
}
