/* bl-include-params-private.h: an <include>'s <experimental:params>
 * applied to the included model's tree, as libsdformat 15 applies them. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

/* The work <experimental:params> did in a document (see below). */
typedef struct
{
  guint   deferred;
  guint64 steps;
} BlParamsBudget;

/* Edits `model` (the included <model>, in the included file's own
 * xmlDoc, read for this include alone) as the <experimental:params> of
 * `include` (in `file`) ask, before the model is read: libsdformat's
 * ParamPassing::updateParams, over the XML tree.  Each child of the
 * params names an element of the model by its `element_id` (scoped
 * names from the model's children: "link::collision") and an `action`
 * (add, modify, remove, replace; without one, each of its children
 * carries its own).  Added and replacing elements are copies of the
 * params' XML without `element_id` and `action`; a modified value that
 * is left empty takes SDF's default (known for the elements Ballast
 * reads, see the .c).
 *
 * An element_id that goes on into a nested <include> of the model
 * (which libsdformat has read by then, and Ballast reads after) is
 * handed on to it: a stub appended to that include's own params, to be
 * applied when the loader reads it and calls this again.
 *
 * `budget` (zeroed at the start of a load) bounds the work of a document:
 * what is handed on (1,000,000 elements) and the children looked at to
 * find elements (50,000,000: libsdformat's search scans a model's
 * children for each alteration); past either, a warning and the rest is
 * not applied.
 *
 * What libsdformat refuses (no element_id, an unknown action, an element
 * that is not found or already exists) is an error in `diagnostics`
 * ("params"), and that alteration is skipped, as libsdformat skips it;
 * what Ballast does not apply (an empty value whose default Ballast does
 * not know) is a warning.  `owner` names the include in them.  Does
 * nothing when `include` has no <experimental:params>. */
void bl_include_params_apply (xmlNode        *include,
                              xmlNode        *model,
                              const char     *file,
                              const char     *owner,
                              GPtrArray      *diagnostics,
                              BlParamsBudget *budget);

/* Whether `node` is the element written `qname` ("experimental:params",
 * "link"): its prefix and local name, whether or not the file declares
 * the prefix. */
gboolean bl_xml_has_qname (xmlNode    *node,
                           const char *qname);

G_END_DECLS
