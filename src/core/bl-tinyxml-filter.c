/* bl-tinyxml-filter.c: bytes read as TinyXML2 (Gazebo) reads them. */
#include "config.h"

#include <string.h>

#include "bl-tinyxml-filter-private.h"

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

/* The bytes of an element's name kept for the message that refuses it. */
#define NAME_KEPT 200

struct _BlTinyxmlFilter
{
  State    state;
  char     quote;       /* the open quote in a tag or declaration, or 0 */
  gboolean in_subset;   /* markup returns to STATE_SUBSET, not STATE_TEXT */
  gboolean end_tag;     /* the tag being read is an end tag */
  guint64  depth;       /* elements open */
  gboolean in_text_run; /* changing a run of text outside the root */
  char     last[2];     /* the two bytes before, for "?>", "]]>" and "/>" */
  guint64  hyphens;     /* a run of hyphens in a comment, held back */
  gboolean changed;     /* the comment being read needed a change */
  int      line;
  int      comment_line;
  guint    attributes;  /* quoted values in the start tag being read */
  gboolean in_name;     /* reading the start tag's element name */
  gboolean refused;     /* an element had too many attributes */
  int      tag_line;    /* where the start tag being read starts */
  char     name[NAME_KEPT + 1];
  guint    name_length; /* bytes of the name seen, kept or not */
  guint    count[BL_TINYXML_N_FAULTS];
  int      first_line[BL_TINYXML_N_FAULTS];
};

BlTinyxmlFilter *
bl_tinyxml_filter_new (void)
{
  BlTinyxmlFilter *filter = g_new0 (BlTinyxmlFilter, 1);

  filter->line = 1;
  return filter;
}

void
bl_tinyxml_filter_free (BlTinyxmlFilter *filter)
{
  g_free (filter);
}

static State
after_markup (BlTinyxmlFilter *filter)
{
  return filter->in_subset ? STATE_SUBSET : STATE_TEXT;
}

/* out may be NULL: the filter then only counts. */
static void
emit (GByteArray *out,
      const char *bytes,
      gsize       length)
{
  if (out != NULL && length > 0)
    g_byte_array_append (out, (const guint8 *) bytes, (guint) length);
}

static void
append_spaces (GByteArray *out,
               guint64     n)
{
  char spaces[64];

  memset (spaces, ' ', sizeof spaces);
  for (; n > 0; n -= MIN (n, sizeof spaces))
    emit (out, spaces, (gsize) MIN (n, sizeof spaces));
}

/* The held-back hyphens, now that the byte after them (c) is known:
 * every hyphen followed by a hyphen is a space, and before the "-->"
 * that ends the comment the last two are that end. */
static void
release_hyphens (BlTinyxmlFilter *filter,
                 char             c,
                 GByteArray      *out)
{
  guint64 keep = c == '>' && filter->hyphens >= 2 ? 2 : MIN (filter->hyphens, 1);

  if (filter->hyphens > keep)
    filter->changed = TRUE;
  append_spaces (out, filter->hyphens - keep);
  for (; keep > 0; keep--)
    emit (out, "-", 1);
  filter->hyphens = 0;
}

static void
count_fault (BlTinyxmlFilter *filter,
             BlTinyxmlFault   fault,
             int              line)
{
  if (filter->count[fault]++ == 0)
    filter->first_line[fault] = line;
}

static void
end_comment (BlTinyxmlFilter *filter)
{
  if (filter->changed)
    count_fault (filter, BL_TINYXML_FAULT_HYPHENS, filter->comment_line);
  filter->changed = FALSE;
  filter->state = after_markup (filter);
}

static gboolean
is_name_end (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' || c == '>' || c == '=' ||
         c == '"' || c == '\'';
}

/* The next LENGTH bytes of the start tag's element name. */
static void
keep_name (BlTinyxmlFilter *filter,
           const char      *bytes,
           gsize            length)
{
  gsize room = filter->name_length < NAME_KEPT ? NAME_KEPT - filter->name_length : 0;

  memcpy (filter->name + filter->name_length, bytes, MIN (room, length));
  filter->name_length += (guint) MIN (length, G_MAXUINT - filter->name_length);
}

/* Moves on from one byte outside a comment (already written out). */
static void
step (BlTinyxmlFilter *filter,
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
          filter->end_tag = c == '/';
          filter->in_name = !filter->end_tag;
          filter->name_length = 0;
          filter->attributes = 0;
          filter->tag_line = filter->line;
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
      if (filter->in_name)
        {
          if (!is_name_end (c))
            {
              keep_name (filter, &c, 1);
              break;
            }
          filter->in_name = FALSE;
        }
      if (filter->quote != 0)
        {
          if (c == filter->quote)
            filter->quote = 0;
        }
      else if (c == '"' || c == '\'')
        {
          /* an attribute's value, in a well-formed start tag */
          if (filter->state == STATE_TAG && !filter->end_tag &&
              ++filter->attributes > BL_TINYXML_MAX_ATTRIBUTES)
            {
              filter->refused = TRUE;
              break;
            }
          filter->quote = c;
        }
      else if (c == '[' && filter->state == STATE_DECL && !filter->in_subset)
        {
          filter->in_subset = TRUE;
          filter->state = STATE_SUBSET;
        }
      else if (c == '>')
        {
          if (filter->state == STATE_TAG && filter->end_tag)
            filter->depth -= filter->depth > 0;
          else if (filter->state == STATE_TAG && filter->last[1] != '/')
            filter->depth++;
          filter->state = after_markup (filter);
        }
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

gboolean
bl_tinyxml_filter_feed (BlTinyxmlFilter *filter,
                        const char      *piece,
                        gsize            length,
                        GByteArray      *out)
{
  gsize start = 0;   /* piece[start…i) is still to be written out unchanged */

  if (filter->refused)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c;

      /* Runs that change no state, read without the dispatch below: text
       * inside the root element up to its '<', and a tag's bytes up to
       * its quote or '>' (most of a file); only their lines are counted. */
      if ((filter->state == STATE_TEXT && filter->depth > 0) || filter->state == STATE_TAG)
        {
          gsize run = i;
          char a = filter->state == STATE_TEXT ? '<' : filter->quote != 0 ? filter->quote : '>';
          char b = filter->state == STATE_TAG && filter->quote == 0 ? '"' : a;
          char d = filter->state == STATE_TAG && filter->quote == 0 ? '\'' : a;
          int lines = 0;

          for (; run < length; run++)
            {
              char r = piece[run];

              if (r == a || r == b || r == d)
                break;
              lines += r == '\n';
            }
          if (run > i)
            {
              if (filter->in_name)
                {
                  gsize end = i;

                  while (end < run && !is_name_end (piece[end]))
                    end++;
                  keep_name (filter, piece + i, end - i);
                  /* a quote or '>' stopped the run: the name ended */
                  filter->in_name = end == run && run == length;
                }
              filter->line += lines;
              filter->last[0] = run - i >= 2 ? piece[run - 2] : filter->last[1];
              filter->last[1] = piece[run - 1];
              i = run;
              if (i == length)
                break;
            }
        }

      c = piece[i];
      if (filter->state == STATE_COMMENT)
        {
          if (c == '-')
            {
              emit (out, piece + start, i - start);
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
      else if (filter->state == STATE_TEXT && filter->depth == 0 && c > ' ' && c < 0x7f && c != '<')
        {
          /* text beside the root element: a space for libxml2 */
          emit (out, piece + start, i - start);
          emit (out, " ", 1);
          start = i + 1;
          if (!filter->in_text_run)
            count_fault (filter, BL_TINYXML_FAULT_OUTSIDE_ROOT, filter->line);
          filter->in_text_run = TRUE;
        }
      else
        {
          if (c == '<')
            filter->in_text_run = FALSE;
          step (filter, c);
          if (filter->refused)
            {
              emit (out, piece + start, i - start);
              return FALSE;
            }
        }

      filter->line += c == '\n';
      filter->last[0] = filter->last[1];
      filter->last[1] = c;
    }
  emit (out, piece + start, length - start);
  return TRUE;
}

void
bl_tinyxml_filter_finish (BlTinyxmlFilter *filter,
                          GByteArray      *out)
{
  if (filter->hyphens > 0)
    release_hyphens (filter, '\0', out);
}

guint
bl_tinyxml_filter_get_count (BlTinyxmlFilter *filter,
                             BlTinyxmlFault   fault)
{
  g_return_val_if_fail ((guint) fault < BL_TINYXML_N_FAULTS, 0);

  return filter->count[fault];
}

int
bl_tinyxml_filter_get_first_line (BlTinyxmlFilter *filter,
                                  BlTinyxmlFault   fault)
{
  g_return_val_if_fail ((guint) fault < BL_TINYXML_N_FAULTS, 0);

  return filter->first_line[fault];
}

char *
bl_tinyxml_filter_get_refused_element (BlTinyxmlFilter *filter,
                                       int             *line)
{
  g_autofree char *name = NULL;
  gsize kept = MIN (filter->name_length, NAME_KEPT);

  if (!filter->refused)
    return NULL;
  if (line != NULL)
    *line = filter->tag_line;
  if (filter->name_length > NAME_KEPT)
    {
      /* cut before a character the kept bytes end inside */
      gsize lead = kept - 1;

      while (lead > 0 && ((guchar) filter->name[lead] & 0xc0) == 0x80)
        lead--;
      if (!g_utf8_validate (filter->name + lead, kept - lead, NULL))
        kept = lead;
    }
  /* bytes that are no UTF-8 shown as U+FFFD */
  name = g_utf8_make_valid (filter->name, kept);
  return filter->name_length > NAME_KEPT ? g_strconcat (name, "…", NULL) : g_steal_pointer (&name);
}
