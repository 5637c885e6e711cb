import { markdownLanguage as cmMarkdown, insertNewlineContinueMarkupCommand } from '@codemirror/lang-markdown';
import { Language, languageDataProp } from '@codemirror/language';
import { EditorSelection, type StateCommand } from '@codemirror/state';
import { GFM, parser } from '@lezer/markdown';

/**
 * Markdown (CommonMark + GFM, as the server renders it) straight from
 * @lezer/markdown, whose parser carries its own highlighting tags. Only the
 * Enter command of @codemirror/lang-markdown is used (about 3 KB gzip, tree
 * shaken): its `markdown()` support imports the HTML, CSS and JavaScript
 * languages for embedded code (about 70 KB gzip), which would break the
 * editor route's 200 KB budget. The command works where lang-markdown's
 * language data is active, so this language carries that facet.
 */
export const markdownLanguage = new Language(
  cmMarkdown.data,
  parser.configure([GFM, { props: [languageDataProp.add({ Document: cmMarkdown.data })] }]),
  [],
  'markdown',
);

/**
 * Enter inside a list item or a quote starts the next one (`- `, `* `,
 * `1. ` counting up, `- [ ] `, `> `); Enter on an empty item ends the list,
 * its marker removed. (`nonTightLists: false`: an empty second item ends
 * the list too, rather than loosening it.)
 */
const continueMarkup = insertNewlineContinueMarkupCommand({ nonTightLists: false });

/** A line that is only quote markers (`>`, `> > `): nothing was written after the last `> `. */
const EMPTY_QUOTE = /^ {0,3}>[ \t]*(?:>[ \t]*)*$/;

/**
 * Enter on an empty quote line ends the quote (one level of `>`), as Enter on
 * an empty list item ends the list. lang-markdown would add another `> `
 * first (a blank line inside the quote) and end it only on the second empty
 * line. Reads only the caret's own line, with a regular expression that cannot backtrack
 * (each repetition starts at a `>`): linear in the line's length.
 */
export const endEmptyQuote: StateCommand = ({ state, dispatch }) => {
  const range = state.selection.main;
  if (!range.empty || state.selection.ranges.length > 1) return false;
  // HTML and plain text: a plain new line.
  if (!markdownLanguage.isActiveAt(state, range.head, -1) && !markdownLanguage.isActiveAt(state, range.head, 1))
    return false;
  const line = state.doc.lineAt(range.head);
  if (range.head !== line.to || !EMPTY_QUOTE.test(line.text)) return false;
  // The outer levels stay as they were (`> > ` → `> `); the last one goes with its indent.
  const outer = line.text.slice(0, line.text.lastIndexOf('>'));
  const keep = outer.includes('>') ? outer : '';
  const to = line.from + keep.length;
  dispatch(
    state.update({
      changes: { from: to, to: line.to },
      selection: EditorSelection.cursor(to),
      scrollIntoView: true,
      userEvent: 'input',
    }),
  );
  return true;
};

/** The Markdown editor's Enter: end an empty quote, else continue list and quote markup, else (false) a plain new line. */
export const markdownEnter: StateCommand = (target) => endEmptyQuote(target) || continueMarkup(target);
