/* bl-display-name.c: names and messages cut to a length a label can lay
 * out at once. */
#include "config.h"

#include <string.h>

#include "bl-display-name.h"

char *
bl_display_cut (const char *text,
                gsize       max)
{
  gsize tail_chars, head_chars, length;
  const char *head_end, *tail;
  g_autofree char *head = NULL;

  g_return_val_if_fail (max >= 8, NULL);

  if (text == NULL)
    return g_strdup ("");
  /* A name under MAX bytes has under MAX characters: no count needed. */
  length = strlen (text);
  if (length <= max || (gsize) g_utf8_strlen (text, -1) <= max)
    return g_strdup (text);

  /* The end of a name often tells names apart (link_1, link_2): keep a
   * fifth of what is shown from it. */
  tail_chars = max / 5;
  head_chars = max - tail_chars - 1;
  head_end = g_utf8_offset_to_pointer (text, (glong) head_chars);
  tail = g_utf8_offset_to_pointer (text + length, -(glong) tail_chars);
  head = g_strndup (text, head_end - text);
  return g_strconcat (head, "…", tail, NULL);
}

char *
bl_display_name (const char *name)
{
  return bl_display_cut (name, BL_DISPLAY_NAME_MAX);
}
