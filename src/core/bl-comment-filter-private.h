/* bl-comment-filter-private.h: comments read as TinyXML2 (Gazebo) reads them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* libxml2 refuses "--" inside a comment, as XML says; TinyXML2, which
 * libsdformat reads with, accepts it and ends a comment at the first
 * "-->" (gz-sim's own example worlds have comments of shell commands
 * with "--reqtype").  The filter rewrites the bytes handed to libxml2 so
 * that each comment, delimited as TinyXML2 delimits it, holds no "--" and
 * does not end in "-": every hyphen of the comment followed by another
 * hyphen becomes a space.  Nothing else changes, not even the length or
 * the line breaks, so lines and offsets stay those of the file.  Markup
 * is followed as far as needed to know where comments are: tags and
 * their quoted values, CDATA sections, processing instructions and the
 * DOCTYPE with its internal subset.  Bytes are filtered as they come, in
 * pieces of any size; ASCII-compatible encodings only (in UTF-16 nothing
 * is ever changed). */
typedef struct _BlCommentFilter BlCommentFilter;

BlCommentFilter *bl_comment_filter_new   (void);
void             bl_comment_filter_free  (BlCommentFilter *filter);

/* Appends to out the filtered bytes of the next piece of input.  A run of
 * hyphens in a comment is held back until the byte after it is known, so
 * out may get fewer or more bytes than the piece. */
void             bl_comment_filter_feed  (BlCommentFilter *filter,
                                          const char      *piece,
                                          gsize            length,
                                          GByteArray      *out);
/* Appends what is still held back (the input ended inside a comment). */
void             bl_comment_filter_finish (BlCommentFilter *filter,
                                           GByteArray      *out);

/* Comments that needed a change, and the line where the first of them
 * starts (0 when none). */
guint            bl_comment_filter_get_count      (BlCommentFilter *filter);
int              bl_comment_filter_get_first_line (BlCommentFilter *filter);

/* Whether data holds a "--" other than a comment's "<!--" or "-->": when
 * not, filtering would change nothing. */
gboolean         bl_comment_filter_needed (const char *data,
                                           gsize       length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlCommentFilter, bl_comment_filter_free)

G_END_DECLS
