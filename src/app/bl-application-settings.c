/* bl-application-settings.c: the application's settings, when installed. */
#include "config.h"

#include <string.h>

#include "bl-application-settings.h"

GSettings *
bl_application_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, BL_APPLICATION_ID, TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/* The model-paths key with FOLDER appended (ADD) or taken out; FALSE
 * when that changes nothing. */
static gboolean
change_model_paths (GSettings  *settings,
                    const char *folder,
                    gboolean    add)
{
  g_auto(GStrv) paths = g_settings_get_strv (settings, "model-paths");
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) updated = NULL;

  if (g_strv_contains ((const char * const *) paths, folder) == add)
    return FALSE;
  builder = g_strv_builder_new ();
  for (guint i = 0; paths[i] != NULL; i++)
    if (add || strcmp (paths[i], folder) != 0)
      g_strv_builder_add (builder, paths[i]);
  if (add)
    g_strv_builder_add (builder, folder);
  updated = g_strv_builder_end (builder);
  return g_settings_set_strv (settings, "model-paths", (const char * const *) updated);
}

gboolean
bl_application_settings_add_model_path (GSettings  *settings,
                                        const char *folder)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), FALSE);
  g_return_val_if_fail (folder != NULL && *folder != '\0', FALSE);

  return change_model_paths (settings, folder, TRUE);
}

gboolean
bl_application_settings_remove_model_path (GSettings  *settings,
                                           const char *folder)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), FALSE);
  g_return_val_if_fail (folder != NULL, FALSE);

  return change_model_paths (settings, folder, FALSE);
}
