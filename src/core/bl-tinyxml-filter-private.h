/* bl-tinyxml-filter-private.h: bytes read as TinyXML2 (Gazebo) reads them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What TinyXML2, which libsdformat reads with, accepts and libxml2 refuses
 * as XML says, rewritten in the bytes handed to libxml2:
 *
 * - "--" inside a comment (gz-sim's own example worlds have comments of
 *   shell commands with "--reqtype").  TinyXML2 ends a comment at the
 *   first "-->"; each comment, delimited so, gets every hyphen that
 *   another hyphen follows turned into a space, so it holds no "--" and
 *   does not end in "-".
 * - Text outside the root element (gz-sim's reset_detachable_joint.sdf
 *   starts "?xml version…", its '<' lost).  TinyXML2 keeps it as a text
 *   node beside the root; its printable ASCII characters become spaces.
 *
 * Nothing else changes, not even the length or the line breaks, so lines
 * and offsets stay those of the file.  Markup is followed as far as
 * needed to know where comments and elements are: tags and their quoted
 * values, CDATA sections, processing instructions and the DOCTYPE with
 * its internal subset.  Bytes are filtered as they come, in pieces of any
 * size; ASCII-compatible encodings only (in UTF-16 nothing is changed).
 *
 * The same pass counts each start tag's attributes (its quoted values,
 * namespace declarations included) and refuses an element with more than
 * BL_TINYXML_MAX_ATTRIBUTES before libxml2 sees it: libxml2 checks every
 * attribute against all the ones before it, and that only once the
 * whole tag is read, so one element of 100,000 costs it 10 s and a file
 * of elements of 10,000 each minutes. */
typedef struct _BlTinyxmlFilter BlTinyxmlFilter;

/* The most attributes one element may have.  The public corpora's most
 * (5,700 SDF, URDF, xacro, COLLADA and config files) is 16.  16 MB of
 * elements of 256 attributes each take `ballast-cli check` 0.6 s, about
 * twice a file of empty elements; of 10,000 each, 26 s. */
#define BL_TINYXML_MAX_ATTRIBUTES 256

typedef enum
{
  BL_TINYXML_FAULT_HYPHENS,       /* a comment with "--" inside */
  BL_TINYXML_FAULT_OUTSIDE_ROOT,  /* text outside the root element */
  BL_TINYXML_N_FAULTS
} BlTinyxmlFault;

BlTinyxmlFilter *bl_tinyxml_filter_new    (void);
void             bl_tinyxml_filter_free   (BlTinyxmlFilter *filter);

/* Appends to out (NULL: only counts) the filtered bytes of the next piece
 * of input.  A run of hyphens in a comment is held back until the byte
 * after it is known, so out may get fewer or more bytes than the piece.
 * FALSE once an element has more than BL_TINYXML_MAX_ATTRIBUTES: out then
 * ends before the quote of the first attribute past the limit, and the
 * filter takes no more input (bl_tinyxml_filter_get_refused_element). */
gboolean         bl_tinyxml_filter_feed   (BlTinyxmlFilter *filter,
                                           const char      *piece,
                                           gsize            length,
                                           GByteArray      *out);
/* The same, for a caller that parses as it filters: when the filter
 * neither changes nor holds back any byte of the piece (a piece without
 * the end of a comment, nearly always), nothing is appended and *as_is is
 * TRUE, the piece to be used as it is; else *as_is is FALSE and out gets
 * the filtered bytes. */
gboolean         bl_tinyxml_filter_feed_or_keep (BlTinyxmlFilter *filter,
                                                 const char      *piece,
                                                 gsize            length,
                                                 GByteArray      *out,
                                                 gboolean        *as_is);
/* The whole of DATA, filtered and finished: *copy NULL when the filter
 * changes no byte of it (nearly every file: what it changes is comments
 * with "--" and text beside the root), else the filtered bytes, copied
 * from the first piece it changes on.  FALSE when it refuses an element,
 * *copy then holding the bytes before the refusal.  DATA is at most
 * G_MAXUINT bytes. */
gboolean         bl_tinyxml_filter_whole  (BlTinyxmlFilter  *filter,
                                           const char       *data,
                                           gsize             length,
                                           GByteArray      **copy);
/* Appends what is still held back (the input ended inside a comment). */
void             bl_tinyxml_filter_finish (BlTinyxmlFilter *filter,
                                           GByteArray      *out);

/* How many times the fault was rewritten (comments, or runs of text), and
 * the line where the first starts (0 when none). */
guint            bl_tinyxml_filter_get_count      (BlTinyxmlFilter *filter,
                                                   BlTinyxmlFault   fault);
int              bl_tinyxml_filter_get_first_line (BlTinyxmlFilter *filter,
                                                   BlTinyxmlFault   fault);

/* After bl_tinyxml_filter_feed returned FALSE: the name of the element
 * with too many attributes (valid UTF-8, its first 200 bytes or so and
 * "…" when longer; newly allocated) and the line where its tag starts;
 * NULL before. */
char            *bl_tinyxml_filter_get_refused_element (BlTinyxmlFilter *filter,
                                                        int             *line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlTinyxmlFilter, bl_tinyxml_filter_free)

G_END_DECLS
