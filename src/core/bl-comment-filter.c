/* bl-comment-filter.c: comments read as TinyXML2 (Gazebo) reads them. */
#include "config.h"

#include <string.h>

#include "bl-comment-filter-private.h"

typedef enum
{
  STATE_TEXT,       /* content, or the prolog */
  STATE_LT,         /* after '<' */
  STATE_BANG,       /* after "<!" */
  STATE_BANG_DASH,  /* after "<!-" */
  STATE_TAG,        /* a start or end tag, up to its '>' */
  STATE_PI,         /* <?…?> */
  STATE_CDATA,      /* <![CDATA[…]]> */
  STATE_DECL,       /* <!DOCTYPE…> or a declaration in its subset */
  STATE_SUBSET,     /* the DOCTYPE's internal subset, between declarations */
  STATE_COMMENT,    /* after "<!--" */
} State;

struct _BlCommentFilter
{
  State    state;
  char     quote;       /* the open quote in a tag or declaration, or 0 */
  gboolean in_subset;   /* markup returns to STATE_SUBSET, not STATE_TEXT */
  char     last[2];     /* the two bytes before, for "?>" and "]]>" */
  guint64  hyphens;     /* a run of hyphens in a comment, held back */
  gboolean changed;     /* the comment being read needed a change */
  int      line;
  int      comment_line;
  guint    count;
  int      first_line;
};

BlCommentFilter *
bl_comment_filter_new (void)
{
  BlCommentFilter *filter = g_new0 (BlCommentFilter, 1);

  filter->line = 1;
  return filter;
}

void
bl_comment_filter_free (BlCommentFilter *filter)
{
  g_free (filter);
}

static State
after_markup (BlCommentFilter *filter)
{
  return filter->in_subset ? STATE_SUBSET : STATE_TEXT;
}

static void
append_spaces (GByteArray *out,
               guint64     n)
{
  guint8 spaces[64];

  memset (spaces, ' ', sizeof spaces);
  for (; n > 0; n -= MIN (n, sizeof spaces))
    g_byte_array_append (out, spaces, (guint) MIN (n, sizeof spaces));
}

/* The held-back hyphens, now that the byte after them (c) is known:
 * every hyphen followed by a hyphen is a space, and before the "-->"
 * that ends the comment the last two are that end. */
static void
release_hyphens (BlCommentFilter *filter,
                 char             c,
                 GByteArray      *out)
{
  guint64 keep = c == '>' && filter->hyphens >= 2 ? 2 : MIN (filter->hyphens, 1);

  if (filter->hyphens > keep)
    filter->changed = TRUE;
  append_spaces (out, filter->hyphens - keep);
  for (; keep > 0; keep--)
    g_byte_array_append (out, (const guint8 *) "-", 1);
  filter->hyphens = 0;
}

static void
end_comment (BlCommentFilter *filter)
{
  if (filter->changed && filter->count++ == 0)
    filter->first_line = filter->comment_line;
  filter->changed = FALSE;
  filter->state = after_markup (filter);
}

/* Moves on from one byte outside a comment (already written out). */
static void
step (BlCommentFilter *filter,
      char             c)
{
  switch (filter->state)
    {
    case STATE_TEXT:
      if (c == '<')
        filter->state = STATE_LT;
      break;

    case STATE_LT:
      if (c == '?')
        filter->state = STATE_PI;
      else if (c == '!')
        filter->state = STATE_BANG;
      else
        {
          filter->state = STATE_TAG;
          step (filter, c);
        }
      break;

    case STATE_BANG:
      if (c == '-')
        filter->state = STATE_BANG_DASH;
      else if (c == '[' && !filter->in_subset)
        filter->state = STATE_CDATA;
      else
        {
          filter->state = STATE_DECL;
          step (filter, c);
        }
      break;

    case STATE_BANG_DASH:
      if (c == '-')
        {
          filter->state = STATE_COMMENT;
          filter->comment_line = filter->line;
        }
      else
        {
          filter->state = STATE_DECL;
          step (filter, c);
        }
      break;

    case STATE_TAG:
    case STATE_DECL:
      if (filter->quote != 0)
        {
          if (c == filter->quote)
            filter->quote = 0;
        }
      else if (c == '"' || c == '\'')
        filter->quote = c;
      else if (c == '[' && filter->state == STATE_DECL && !filter->in_subset)
        {
          filter->in_subset = TRUE;
          filter->state = STATE_SUBSET;
        }
      else if (c == '>')
        filter->state = after_markup (filter);
      break;

    case STATE_PI:
      if (c == '>' && filter->last[1] == '?')
        filter->state = after_markup (filter);
      break;

    case STATE_CDATA:
      if (c == '>' && filter->last[0] == ']' && filter->last[1] == ']')
        filter->state = after_markup (filter);
      break;

    case STATE_SUBSET:
      if (c == '<')
        filter->state = STATE_LT;
      else if (c == ']')
        {
          filter->in_subset = FALSE;
          filter->state = STATE_DECL;
        }
      break;

    case STATE_COMMENT:
    default:
      g_assert_not_reached ();
    }
}

void
bl_comment_filter_feed (BlCommentFilter *filter,
                        const char      *piece,
                        gsize            length,
                        GByteArray      *out)
{
  gsize start = 0;   /* piece[start…i) is still to be written out unchanged */

  for (gsize i = 0; i < length; i++)
    {
      char c = piece[i];

      if (filter->state == STATE_COMMENT)
        {
          if (c == '-')
            {
              g_byte_array_append (out, (const guint8 *) piece + start, (guint) (i - start));
              start = i + 1;
              filter->hyphens++;
              continue;
            }
          if (filter->hyphens > 0)
            {
              gboolean ends = c == '>' && filter->hyphens >= 2;

              release_hyphens (filter, c, out);
              if (ends)
                end_comment (filter);
            }
        }
      else
        step (filter, c);

      filter->line += c == '\n';
      filter->last[0] = filter->last[1];
      filter->last[1] = c;
    }
  g_byte_array_append (out, (const guint8 *) piece + start, (guint) (length - start));
}

void
bl_comment_filter_finish (BlCommentFilter *filter,
                          GByteArray      *out)
{
  if (filter->hyphens > 0)
    release_hyphens (filter, '\0', out);
}

guint
bl_comment_filter_get_count (BlCommentFilter *filter)
{
  return filter->count;
}

int
bl_comment_filter_get_first_line (BlCommentFilter *filter)
{
  return filter->first_line;
}

gboolean
bl_comment_filter_needed (const char *data,
                          gsize       length)
{
  const char *end = data + length;

  for (const char *p = data; p + 1 < end; p++)
    {
      p = memmem (p, (gsize) (end - p), "--", 2);
      if (p == NULL)
        return FALSE;
      if (p - data >= 2 && p[-2] == '<' && p[-1] == '!')
        continue;
      if (p + 2 < end && p[2] == '>')
        continue;
      return TRUE;
    }
  return FALSE;
}
