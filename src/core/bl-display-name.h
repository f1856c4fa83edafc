/* bl-display-name.h: names and messages cut to a length a label can lay
 * out at once.  A link name may be megabytes long (the loader has no
 * limit on a name); Pango lays out a label's whole text even when it shows
 * an ellipsized end of it, so a 9.5 MB name cost a minute and gigabytes.
 * Labels, titles, tooltips and dialogs show the cut text; the model keeps
 * the whole name (searching, copying, saving and the CLI use it). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Characters a label shows of a name, and of a message that may hold
 * names (a tooltip, a diagnostic). */
#define BL_DISPLAY_NAME_MAX 200
#define BL_DISPLAY_TEXT_MAX 2000

/* TEXT (UTF-8) when it has at most MAX characters, else its first and last
 * characters around a "…", MAX characters in all: newly allocated. */
char *bl_display_cut  (const char *text,
                       gsize       max);
/* bl_display_cut (NAME, BL_DISPLAY_NAME_MAX); NULL gives "". */
char *bl_display_name (const char *name);

G_END_DECLS
