import { markdownLanguage as cmMarkdown, insertNewlineContinueMarkupCommand } from '@codemirror/lang-markdown';
import { Language, languageDataProp, syntaxTree } from '@codemirror/language';
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
 * line. A blank line is left after the quote: a line that follows a quote
 * directly is part of it in Markdown (a "lazy" continuation), so the next
 * paragraph would be glued into the quote. Reads only the caret's own line,
 * with a regular expression that cannot backtrack (each repetition starts at
 * a `>`): linear in the line's length.
 */
export const endEmptyQuote: StateCommand = ({ state, dispatch }) => {
  const range = state.selection.main;
  if (!range.empty || state.selection.ranges.length > 1) return false;
  // HTML and plain text: a plain new line.
  if (!markdownLanguage.isActiveAt(state, range.head, -1) && !markdownLanguage.isActiveAt(state, range.head, 1))
    return false;
  const line = state.doc.lineAt(range.head);
  if (range.head !== line.to || !EMPTY_QUOTE.test(line.text)) return false;
  // The outer levels stay as they were (`> > ` → `>` and `> `); the last one goes with its indent.
  const outer = line.text.slice(0, line.text.lastIndexOf('>'));
  const keep = outer.includes('>') ? outer : '';
  const insert = `${keep.trimEnd()}${state.lineBreak}${keep}`;
  dispatch(
    state.update({
      changes: { from: line.from, to: line.to, insert },
      selection: EditorSelection.cursor(line.from + insert.length),
      scrollIntoView: true,
      userEvent: 'input',
    }),
  );
  return true;
};

/** An empty item of a list that is not nested (no indent): `- `, `* `, `+ `, `1. `, `1) `, `- [ ] `. */
const EMPTY_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[[ xX]\])?[ \t]*$/;

/**
 * Enter on an empty item of a top-level list ends the list with a blank line
 * after it, for the same reason as after a quote: the next paragraph typed
 * straight under the last item would be part of that item. Nested lists are
 * left to lang-markdown (it moves the item out one level).
 */
export const endEmptyItem: StateCommand = ({ state, dispatch }) => {
  const range = state.selection.main;
  if (!range.empty || state.selection.ranges.length > 1) return false;
  if (!markdownLanguage.isActiveAt(state, range.head, -1)) return false;
  const line = state.doc.lineAt(range.head);
  if (range.head !== line.to || !EMPTY_ITEM.test(line.text)) return false;
  // A list item by the parser (`-` under a paragraph is a heading's underline, say).
  const inner = syntaxTree(state).resolveInner(range.head, -1);
  for (let node: typeof inner | null = inner; node; node = node.parent)
    if (node.name === 'ListItem') {
      const insert = state.lineBreak;
      dispatch(
        state.update({
          changes: { from: line.from, to: line.to, insert },
          selection: EditorSelection.cursor(line.from + insert.length),
          scrollIntoView: true,
          userEvent: 'input',
        }),
      );
      return true;
    }
  return false;
};

/** The Markdown editor's Enter: end an empty quote or list, else continue list and quote markup, else (false) a plain new line. */
export const markdownEnter: StateCommand = (target) =>
  endEmptyQuote(target) || endEmptyItem(target) || continueMarkup(target);
