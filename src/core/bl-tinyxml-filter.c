/* bl-tinyxml-filter.c: bytes read as TinyXML2 (Gazebo) reads them. */
#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
  gboolean in_name;     /* the open start tag's name goes on in the next piece */
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

/* Keeps the open start tag's name, or what of it lies in [from, to):
 * TRUE when it ends there.  Called only when it is needed, for the
 * refusal or at the end of a piece, not for every tag. */
static gboolean
keep_name (BlTinyxmlFilter *filter,
           const char      *from,
           const char      *to)
{
  const char *end = from;
  gsize room = filter->name_length < NAME_KEPT ? NAME_KEPT - filter->name_length : 0;

  while (end < to && !is_name_end (*end))
    end++;
  memcpy (filter->name + filter->name_length, from, MIN (room, (gsize) (end - from)));
  filter->name_length += (guint) MIN ((gsize) (end - from), G_MAXUINT - filter->name_length);
  return end < to;
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

/* Where the run from piece[i] that changes no state ends: at the next
 * byte that matters in the state (i when the state is read byte by
 * byte).  A quoted value runs to its quote, a comment to a '-', a
 * processing instruction or a CDATA section to a '>' (memchr), a tag's
 * name and blanks to its quote or '>'. */
static gsize
run_end (BlTinyxmlFilter *filter,
         const char      *piece,
         gsize            i,
         gsize            length)
{
  const char *found;
  char stop;

  switch (filter->state)
    {
    case STATE_TAG:
      if (filter->quote == 0)
        {
          while (i < length && piece[i] != '"' && piece[i] != '\'' && piece[i] != '>')
            i++;
          return i;
        }
      stop = filter->quote;
      break;

    case STATE_COMMENT:
      if (filter->hyphens > 0)
        return i;
      stop = '-';
      break;

    case STATE_PI:
    case STATE_CDATA:
      stop = '>';
      break;

    case STATE_TEXT:   /* inside the root: plain_markup_end; beside it, a byte at a time */
    case STATE_LT:
    case STATE_BANG:
    case STATE_BANG_DASH:
    case STATE_DECL:
    case STATE_SUBSET:
    default:
      return i;
    }
  /* most runs are a few bytes: looked at first, then memchr */
  for (gsize near = MIN (length, i + 16); i < near; i++)
    if (piece[i] == stop)
      return i;
  found = i < length ? memchr (piece + i, stop, length - i) : NULL;
  return found != NULL ? (gsize) (found - piece) : length;
}

/* The first of piece[i…length) that is a or b or c, or length: sixteen
 * bytes at a time where the processor has SSE2 (every x86-64), as most
 * of a file is read (a tag's name and attributes, the text between two
 * tags); a byte at a time for the last few. */
static inline gsize
find_any (const char *piece,
          gsize       i,
          gsize       length,
          char        a,
          char        b,
          char        c)
{
#ifdef __SSE2__
  __m128i va = _mm_set1_epi8 (a), vb = _mm_set1_epi8 (b), vc = _mm_set1_epi8 (c);

  for (; i + 16 <= length; i += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (piece + i));
      int mask = _mm_movemask_epi8 (_mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, va), _mm_cmpeq_epi8 (v, vb)),
                                                  _mm_cmpeq_epi8 (v, vc)));

      if (mask != 0)
        return i + (gsize) __builtin_ctz ((unsigned) mask);
    }
#endif
  while (i < length && piece[i] != a && piece[i] != b && piece[i] != c)
    i++;
  return i;
}

/* Where the plain markup from piece[i] ends, the state at STATE_TEXT
 * inside the root element: text and whole start and end tags (their
 * quoted values counted as attributes), read here in one loop instead of
 * a step a byte, their elements opened and closed.  Stops at the '<' of
 * anything else (a comment, a processing instruction, CDATA, a tag that
 * goes on in the next piece or has too many attributes, which the byte
 * by byte loop then reads as always), after the end tag of the root
 * element, or at the end of the piece.  The state is STATE_TEXT there. */
static gsize
plain_markup_end (BlTinyxmlFilter *filter,
                  const char      *piece,
                  gsize            i,
                  gsize            length)
{
  while (i < length)
    {
      gsize tag = find_any (piece, i, length, '<', '<', '<'), j;  /* the next '<' */
      guint attributes = 0;
      gboolean end_tag;

      if (tag == length)
        return length;
      if (tag + 1 == length || piece[tag + 1] == '!' || piece[tag + 1] == '?')
        return tag;
      end_tag = piece[tag + 1] == '/';
      for (j = tag + 1;; j++)
        {
          const char *close;

          j = find_any (piece, j, length, '"', '\'', '>');
          if (j == length)
            return tag;
          if (piece[j] == '>')
            break;
          if (!end_tag && ++attributes > BL_TINYXML_MAX_ATTRIBUTES)
            return tag;
          close = memchr (piece + j + 1, piece[j], length - j - 1);
          if (close == NULL)
            return tag;
          j = (gsize) (close - piece);
        }
      /* "/>" closes what it opens; the byte before the '>' is in the tag */
      if (end_tag)
        filter->depth -= filter->depth > 0;
      else if (piece[j - 1] != '/')
        filter->depth++;
      i = j + 1;
      if (filter->depth == 0)
        return i;
    }
  return i;
}

static int
count_lines (const char *bytes,
             gsize       length)
{
  const char *end = bytes + length;
  gsize lines = 0;

#ifdef __SSE2__
  /* sixteen bytes at a time, a count in each byte of a register (a match
   * is -1, subtracted) for at most 255 rounds, then summed */
  while (end - bytes >= 16)
    {
      __m128i counts = _mm_setzero_si128 (), newline = _mm_set1_epi8 ('\n');
      __m128i sums;

      for (int round = 0; round < 255 && end - bytes >= 16; round++, bytes += 16)
        counts = _mm_sub_epi8 (counts, _mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) bytes), newline));
      sums = _mm_sad_epu8 (counts, _mm_setzero_si128 ());
      lines += (gsize) _mm_cvtsi128_si32 (sums) + (gsize) _mm_cvtsi128_si32 (_mm_srli_si128 (sums, 8));
    }
#endif
  for (; bytes < end; bytes++)
    lines += *bytes == '\n';
  return (int) lines;
}

/* bl_tinyxml_filter_feed, and with as_is (out then not NULL) its
 * variant that leaves out the copy of a piece that passes unchanged. */
static gboolean
feed (BlTinyxmlFilter *filter,
      const char      *piece,
      gsize            length,
      GByteArray      *out,
      gboolean        *as_is)
{
  guint out_length = out != NULL ? out->len : 0;
  gsize start = 0;   /* piece[start…i) is still to be written out unchanged */
  const char *name_at = filter->in_name ? piece : NULL;  /* the open start tag's name, in this piece */

  if (filter->refused)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    {
      /* Runs read without the dispatch below (most of a file): inside
       * the root element, text and whole tags (plain_markup_end), else
       * runs that change no state; only their lines are counted here. */
      gsize run = filter->state == STATE_TEXT && filter->depth > 0 ? plain_markup_end (filter, piece, i, length)
                                                                   : run_end (filter, piece, i, length);
      char c;

      if (run > i)
        {
          filter->line += count_lines (piece + i, run - i);
          filter->last[0] = run - i >= 2 ? piece[run - 2] : filter->last[1];
          filter->last[1] = piece[run - 1];
          i = run;
          if (i == length)
            break;
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
          State before = filter->state;

          if (c == '<')
            filter->in_text_run = FALSE;
          step (filter, c);
          if (before == STATE_LT && filter->state == STATE_TAG && !filter->end_tag)
            {
              name_at = piece + i;
              filter->name_length = 0;
            }
          if (filter->refused)
            {
              if (name_at != NULL)
                keep_name (filter, name_at, piece + i);
              emit (out, piece + start, i - start);
              return FALSE;
            }
        }

      filter->line += c == '\n';
      filter->last[0] = filter->last[1];
      filter->last[1] = c;
    }
  /* Nothing left out (every change moves start past a byte of the piece)
   * and nothing written before: the piece is its own output. */
  if (as_is != NULL)
    *as_is = start == 0 && out->len == out_length;
  if (as_is == NULL || !*as_is)
    emit (out, piece + start, length - start);
  /* a start tag read on in the next piece: its name, for a refusal there */
  filter->in_name = filter->state == STATE_TAG && !filter->end_tag && name_at != NULL &&
                    !keep_name (filter, name_at, piece + length);
  return TRUE;
}

gboolean
bl_tinyxml_filter_feed (BlTinyxmlFilter *filter,
                        const char      *piece,
                        gsize            length,
                        GByteArray      *out)
{
  return feed (filter, piece, length, out, NULL);
}

gboolean
bl_tinyxml_filter_feed_or_keep (BlTinyxmlFilter *filter,
                                const char      *piece,
                                gsize            length,
                                GByteArray      *out,
                                gboolean        *as_is)
{
  g_return_val_if_fail (out != NULL && as_is != NULL, FALSE);

  *as_is = FALSE;
  return feed (filter, piece, length, out, as_is);
}

gboolean
bl_tinyxml_filter_whole (BlTinyxmlFilter  *filter,
                         const char       *data,
                         gsize             length,
                         GByteArray      **copy)
{
  const gsize piece = 64 * 1024;
  g_autoptr(GByteArray) out = g_byte_array_sized_new (piece);
  gboolean within = TRUE;

  g_return_val_if_fail (length <= G_MAXUINT && copy != NULL, FALSE);

  *copy = NULL;
  for (gsize done = 0; done < length && within;)
    {
      gsize m = MIN (length - done, piece);
      gboolean as_is;

      g_byte_array_set_size (out, 0);
      within = bl_tinyxml_filter_feed_or_keep (filter, data + done, m, out, &as_is);
      /* a piece with a comment's end is not "as it is" yet mostly comes
       * back unchanged; before the first change nothing is held back, so
       * the same bytes are the piece itself */
      if (!as_is && *copy == NULL && within && out->len == m && memcmp (out->data, data + done, m) == 0)
        as_is = TRUE;
      if (!as_is && *copy == NULL)
        *copy = g_byte_array_append (g_byte_array_sized_new ((guint) length), (const guint8 *) data, (guint) done);
      if (*copy != NULL)
        g_byte_array_append (*copy, as_is ? (const guint8 *) data + done : out->data, as_is ? (guint) m : out->len);
      done += m;
    }
  if (!within)
    return FALSE;

  g_byte_array_set_size (out, 0);
  bl_tinyxml_filter_finish (filter, out);
  if (out->len > 0)
    {
      /* held back in a piece that was not as it is, so copied already */
      g_assert (*copy != NULL);
      g_byte_array_append (*copy, out->data, out->len);
    }
  /* the filter keeps every byte's place */
  g_assert (*copy == NULL || (*copy)->len == length);
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
