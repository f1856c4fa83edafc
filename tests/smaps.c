/* smaps.c: what /proc/self/smaps says of the mapping that holds an
 * address. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "smaps.h"

char *
smaps_field_at (const void *address,
                const char *field)
{
  g_autofree char *smaps = NULL;
  g_autofree char *prefix = g_strconcat (field, ":", NULL);
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  g_assert_true (g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL));
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long long start, end;

      /* a mapping's first line: "START-END PERMS …" */
      if (sscanf (lines[i], "%llx-%llx ", &start, &end) == 2)
        inside = (guintptr) address >= start && (guintptr) address < end;
      else if (inside && g_str_has_prefix (lines[i], prefix))
        return g_strstrip (g_strdup (lines[i] + strlen (prefix)));
    }
  return NULL;
}
