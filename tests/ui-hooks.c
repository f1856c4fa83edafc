/* ui-hooks.c: test-only hooks into the application (see ui-hooks.h). */
#include "config.h"

#include <string.h>

#include "bl-number.h"
#include "bl-session-private.h"
#include "ui-hooks.h"

static gint load_delay_ms;

static void
delay_load (GFile        *file,
            GCancellable *cancellable)
{
  gint64 end = g_get_monotonic_time () + (gint64) g_atomic_int_get (&load_delay_ms) * 1000;

  while (g_get_monotonic_time () < end && !g_cancellable_is_cancelled (cancellable))
    g_usleep (2000);
}

void
ui_hooks_set_load_delay (guint ms)
{
  g_atomic_int_set (&load_delay_ms, (gint) MIN (ms, 60000));
  bl_session_set_load_hook (ms > 0 ? delay_load : NULL);
}

gboolean
ui_hooks_apply_density_edit (BlWindow    *window,
                             const char  *spec,
                             GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":density=", 2);
  const char *slash = parts[0] != NULL ? strrchr (parts[0], '/') : NULL;
  g_autofree char *link_name = NULL;
  g_autoptr(BlEdit) edit = NULL;
  BlCollision *collision;
  double value;

  if (g_strv_length (parts) != 2 || slash == NULL || !bl_number_parse (parts[1], &value))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s”: expected LINK/COLLISION:density=VALUE", spec);
      return FALSE;
    }
  link_name = g_strndup (parts[0], slash - parts[0]);
  collision = bl_document_find_collision (bl_window_get_document (window), link_name, slash + 1);
  if (collision == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "“%s”: no such collision", spec);
      return FALSE;
    }
  edit = bl_edit_new_collision_density (bl_window_get_document (window), collision, value);
  return bl_window_do_edit (window, edit, error);
}
