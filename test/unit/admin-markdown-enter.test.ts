import { ensureSyntaxTree, syntaxTreeAvailable } from '@codemirror/language';
import { EditorSelection, EditorState, type Transaction } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endEmptyQuote, markdownEnter, markdownLanguage } from '../../admin-qwik/src/lib/markdown-enter.js';

/** `|` marks the caret. Runs one command; the text after it (caret as `|`), or null when it declined. */
function enter(marked: string, command = markdownEnter, markdown = true): string | null {
  const at = marked.indexOf('|');
  let state = EditorState.create({
    doc: marked.replace('|', ''),
    selection: EditorSelection.cursor(at),
    extensions: markdown ? [markdownLanguage] : [],
  });
  // CodeMirror parses a new state for 20 ms at most and, without a view, never goes on by itself: on a
  // loaded machine the list after the caret could be left unparsed, and the command would not see it.
  // The whole document is parsed first (no time limit that load could reach), and a transaction takes the tree.
  if (markdown && !syntaxTreeAvailable(state, state.doc.length)) {
    ensureSyntaxTree(state, state.doc.length, 60_000);
    state = state.update({}).state;
  }
  if (markdown) expect(syntaxTreeAvailable(state, state.doc.length)).toBe(true);
  let tr: Transaction | null = null;
  const handled = command({ state, dispatch: (t) => (tr = t) });
  if (!handled) return null;
  const next = (tr as Transaction | null)!.state;
  const head = next.selection.main.head;
  const text = next.doc.toString();
  return `${text.slice(0, head)}|${text.slice(head)}`;
}

describe('Enter in the Markdown editor', () => {
  it('starts the next list item, counting numbered lists up and unticking tasks', () => {
    expect(enter('- one|')).toBe('- one\n- |');
    expect(enter('* star|')).toBe('* star\n* |');
    expect(enter('1. first|')).toBe('1. first\n2. |');
    expect(enter('1. first\n2. second|')).toBe('1. first\n2. second\n3. |');
    expect(enter('- [x] done|')).toBe('- [x] done\n- [ ] |');
    expect(enter('- [ ] todo|')).toBe('- [ ] todo\n- [ ] |');
    // In the middle of an item: the rest goes to the new item.
    expect(enter('- one| two')).toBe('- one\n- | two');
  });

  it('renumbers the items after a new one', () => {
    expect(enter('1. a|\n2. b\n3. c')).toBe('1. a\n2. |\n3. b\n4. c');
  });

  // A blank line is left: a line straight under a list would be part of its last item (a lazy continuation).
  it('ends the list on an empty item, the second one too, with a blank line after it', () => {
    expect(enter('- one\n- |')).toBe('- one\n\n|');
    expect(enter('- one\n- two\n- |')).toBe('- one\n- two\n\n|');
    expect(enter('1. one\n2. |')).toBe('1. one\n\n|');
    expect(enter('- [ ] one\n- [ ] |')).toBe('- [ ] one\n\n|');
    // A nested empty item moves out one level.
    expect(enter('- one\n  - |')).toBe('- one\n- |');
  });

  it('continues a quote, and ends it on an empty quote line, with a blank (quoted) line after it', () => {
    expect(enter('> quoted|')).toBe('> quoted\n> |');
    expect(enter('> quoted\n> |')).toBe('> quoted\n\n|');
    expect(enter('> > deep\n> > |')).toBe('> > deep\n>\n> |');
    expect(enter('> - item\n> - |')).toBe('> - item\n> |');
  });

  it('leaves plain lines, selections and other formats to the ordinary new line', () => {
    expect(enter('plain text|')).toBeNull();
    expect(enter('> |', markdownEnter, false)).toBeNull();
    expect(enter('- one|', markdownEnter, false)).toBeNull();
    expect(enter('> quote| text', endEmptyQuote)).toBeNull();
  });

  // Property: over any text and caret, Enter does not throw; where the empty-quote rule (hand-written)
  // applies it changes only the caret's line, removing its last `>` level and what follows it, with a
  // blank line (quoted by the outer levels) before the caret's.
  it('never throws, and the empty-quote rule touches only its own line', () => {
    const text = fc.string({
      unit: fc.constantFrom('>', ' ', '\t', '-', '*', '1', '.', ')', '[', ']', 'x', 'a', '\n', '`'),
      maxLength: 120,
    });
    fc.assert(
      fc.property(text, fc.nat(), (doc, n) => {
        const at = doc.length ? n % (doc.length + 1) : 0;
        const marked = `${doc.slice(0, at)}|${doc.slice(at)}`;
        expect(() => enter(marked)).not.toThrow();
        const quoted = enter(marked, endEmptyQuote);
        if (quoted === null) return;
        const lineStart = doc.lastIndexOf('\n', at - 1) + 1;
        const line = doc.slice(lineStart, at);
        expect(line).toMatch(/^ {0,3}>[ \t>]*$/);
        expect(doc.slice(at)).toMatch(/^(\n|$)/);
        const before = line.slice(0, line.lastIndexOf('>'));
        const keep = before.includes('>') ? before : '';
        expect(quoted).toBe(`${doc.slice(0, lineStart)}${keep.trimEnd()}\n${keep}|${doc.slice(at)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a long hostile line in one pass (the rule cannot backtrack)', () => {
    const hostile = `${'> \t'.repeat(20_000)}x`;
    expect(enter(`${hostile}|`, endEmptyQuote)).toBeNull();
    const outer = '> '.repeat(19_999);
    expect(enter(`${'> '.repeat(20_000)}|`, endEmptyQuote)).toBe(`${outer.trimEnd()}\n${outer}|`);
  });
});
