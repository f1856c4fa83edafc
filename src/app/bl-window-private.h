/* bl-window-private.h: what bl-window.c and bl-window-actions.c share. */
#pragma once

#include "bl-added-mass.h"
#include "bl-added-mass-editor.h"
#include "bl-fluid.h"
#include "bl-inspector.h"
#include "bl-outline.h"
#include "bl-problems-bar.h"
#include "bl-session.h"
#include "bl-toast.h"
#include "bl-viewport.h"
#include "bl-window.h"

G_BEGIN_DECLS

struct _BlWindow
{
  GtkApplicationWindow  parent_instance;

  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkMenuButton        *recent_button;
  GMenu                *recent_section;  /* the recent files, kept up to date */
  GtkPaned             *inner_paned;
  gboolean              panes_placed;  /* the dividers' first positions are set */
  int                   last_width;    /* of the last allocation */
  GtkBox               *viewport_box;
  GtkStack             *side_stack;
  BlOutline            *outline;
  BlInspector          *inspector;
  BlAddedMassEditor    *added_mass_editor;
  BlViewport           *viewport;
  GSimpleAction        *fit_selection; /* view.fit-selection, enabled while a link or model is selected */
  BlProblemsBar        *problems_bar;  /* the document's own problems, above the view */
  BlToast              *toast;         /* short notices over the view's bottom */
  GtkWidget            *loading_box;   /* spinner and "Opening …" over the viewport */
  GtkSpinner           *loading_spinner;
  GtkLabel             *loading_label;

  GSettings            *settings;
  /* The file shown: document, history, disk, loading, saving, recovery. */
  BlSession            *session;
  GFile                *open_anyway;   /* opened past "window-max-links" at the user's word */
  gboolean              remember_recent;
  double                fluid_density; /* kg/m³, "fluid-density": the world's
                                        * when it names one, else the default */
  double                default_fluid_density; /* the setting's */
  BlWorldFluid          world_fluid;   /* of the document's world */
  GtkWidget            *dialog;        /* the question being asked, if any */
  gboolean              close_confirmed;
};

/* The answers of the window's questions. */
enum {
  BL_WINDOW_RESPONSE_DISCARD = 1,
  BL_WINDOW_RESPONSE_SAVE = 2,
  BL_WINDOW_RESPONSE_KEEP_MINE = 3,   /* the file changed on disk: keep the edits */
  BL_WINDOW_RESPONSE_RELOAD = 4,      /* … or reload it and lose them */
  BL_WINDOW_RESPONSE_REPLACE = 5,     /* save over a file changed on disk */
};

/* What to do once a question is answered or a save is done.  Whoever
 * receives a BlThen owns it: it either runs it (bl_then_run, which frees
 * it and its data) or gives it up (bl_then_free, which frees the data
 * unrun); NULL means nothing to do. */
typedef void (*BlContinuation) (BlWindow *self,
                                gpointer  data);
typedef struct _BlThen BlThen;

BlThen     *bl_then_new                       (BlContinuation  continuation,
                                               gpointer        data,
                                               GDestroyNotify  destroy);
void        bl_then_run                       (BlThen         *then,
                                               BlWindow       *window);
void        bl_then_free                      (BlThen         *then);

/* bl-window.c */
void        _bl_window_show_error             (BlWindow       *self,
                                               const char     *primary,
                                               const char     *secondary);
GtkWidget  *_bl_window_question_new           (BlWindow       *self,
                                               GtkMessageType  type,
                                               const char     *primary,
                                               const char     *secondary);
char       *_bl_window_dup_display_name       (BlWindow       *self);
char       *_bl_window_dup_folder_display     (GFile          *file);
void        _bl_window_add_to_recent          (BlWindow       *self,
                                               GFile          *file);
/* Runs `then` now when there is nothing to lose, or after the user chose
 * to save or discard the edits (Cancel gives it up).  `question` is the
 * dialog's full text. */
void        _bl_window_confirm_discard        (BlWindow       *self,
                                               const char     *question,
                                               BlThen         *then);
/* Reads the shown file again in the background. */
void        _bl_window_reload                 (BlWindow       *self,
                                               gpointer        unused);
void        _bl_window_update_title           (BlWindow       *self);

/* bl-window-actions.c */
void        _bl_window_class_actions_init     (BlWindowClass  *klass);
/* The "view" actions of the viewport's menu. */
void        _bl_window_install_view_actions   (BlWindow       *self,
                                               GtkWidget      *legend);
void        _bl_window_bind_view_settings     (BlWindow       *self);
void        _bl_window_update_actions         (BlWindow       *self);
void        _bl_window_update_recent_menu     (BlWindow       *self);
/* Writes the document to `file` (asks where when NULL), baked or not;
 * asks first when that would replace another program's changes. */
void        _bl_window_save                   (BlWindow       *self,
                                               GFile          *file,
                                               gboolean        bake,
                                               BlThen         *then);

G_END_DECLS
