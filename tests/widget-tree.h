/* widget-tree.h: finding widgets and typing into them, for the ui tests
 * and the app benchmark. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The first widget under ROOT (ROOT included, depth first) whose name is
 * NAME, or of TYPE; NULL when there is none. */
GtkWidget *find_named   (GtkWidget  *root,
                         const char *name);
GtkWidget *find_by_type (GtkWidget  *root,
                         GType       type);

/* Sets the text of an editable and activates it as Enter would (GTK
 * 4.8's spin button has no ::activate: Enter reaches its GtkText). */
void       type_text    (GtkWidget  *widget,
                         const char *text);

G_END_DECLS
