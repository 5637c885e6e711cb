import { defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory, redo } from '@codemirror/commands';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorSelection, EditorState, Prec } from '@codemirror/state';
import { drawSelection, EditorView, keymap, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { markdownEnter, markdownLanguage } from './markdown-enter';

/**
 * The body editor: CodeMirror 6 (well kept, accessible: a contenteditable
 * with role=textbox, screen-reader friendly selection, the platform's own
 * input methods). Imported only by the editor, dynamically, so neither the
 * login page nor any other screen loads it. Styles: CodeMirror mounts its
 * own style sheet (constructable, or a <style> element where those are not
 * supported); the admin's CSP allows style-src 'unsafe-inline' already, so
 * no nonce is needed (see csp.ts).
 */
export type Format = 'markdown' | 'html' | 'plaintext';

export interface MarkdownEditor {
  readonly value: string;
  setValue(text: string): void;
  setFormat(format: Format): void;
  /** Wraps the selection in `before` … `after` (or inserts them around the caret). */
  wrap(before: string, after: string): void;
  /** Prefixes each selected line (`# `, `- `, `> `); a caret at a line's start ends up after the marker. */
  prefixLines(prefix: string | ((index: number) => string)): void;
  /** `[selection](https://)` with the URL placeholder selected, to type the address over it (`link text` without a selection). */
  link(): void;
  /** Inserts `text` at the caret (replacing the selection), on a line of its own when `block`. */
  insert(text: string, block?: boolean): void;
  /** Inserts `![alt](url)` on a line of its own at `at` (a drop's place) or the caret, the alt text selected to type over. */
  insertImage(url: string, alt: string, at?: number | null): void;
  /**
   * Replaces `from`..`to` with `text`, the writer's caret and selection
   * staying where they are in the text; a selection inside the range
   * becomes `select` (offsets in `text`) when given.
   */
  replaceRange(from: number, to: number, text: string, select?: [number, number]): void;
  focus(): void;
  destroy(): void;
}

const highlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: '700' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--accent)' },
  { tag: tags.monospace, fontFamily: 'ui-monospace, monospace' },
  { tag: [tags.processingInstruction, tags.meta, tags.quote], color: 'var(--fg-soft)' },
]);

/** Colours from the admin's own variables, so light and dark mode (and their contrast) follow the page. */
const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--bg)', border: '1px solid var(--border)', borderRadius: '6px' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '1px' },
  '.cm-content': {
    padding: '0.75rem',
    minHeight: '18rem',
    fontSize: '1.05rem',
    lineHeight: '1.6',
    caretColor: 'var(--fg)',
  },
  '.cm-placeholder': { color: 'var(--fg-soft)' },
  // Prose, not code: the page's own font.
  '.cm-scroller': { fontFamily: 'inherit' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--bg-soft)' },
});

const language = (format: Format) => (format === 'markdown' ? markdownLanguage : []);

export function createMarkdownEditor(
  parent: HTMLElement,
  options: {
    doc: string;
    format: Format;
    labelledBy: string;
    describedBy?: string;
    onChange: (text: string) => void;
    /** Image files pasted or dropped onto the text; `at` is the drop's place in the text. */
    onImages?: (files: File[], at: number | null) => void;
  },
): MarkdownEditor {
  const lang = new Compartment();
  let quiet = false;
  const takeImages = (e: Event, data: DataTransfer | null, at: number | null) => {
    const files = Array.from(data?.files ?? []).filter((f) => f.type.startsWith('image/'));
    if (!files.length || !options.onImages) return false;
    e.preventDefault();
    options.onImages(files, at);
    return true;
  };
  const wrapped = (before: string, after: string) => {
    editor.wrap(before, after);
    return true;
  };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        history(),
        drawSelection(),
        EditorView.lineWrapping,
        lang.of(language(options.format)),
        syntaxHighlighting(highlight),
        theme,
        placeholder('Write here…'),
        keymap.of([
          { key: 'Mod-b', run: () => wrapped('**', '**') },
          { key: 'Mod-i', run: () => wrapped('_', '_') },
          {
            key: 'Mod-k',
            run: () => {
              editor.link();
              return true;
            },
          },
          // Lists and quotes continue on Enter (Markdown only: elsewhere it answers false, a plain new line).
          { key: 'Enter', run: markdownEnter },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        EditorView.contentAttributes.of({
          'aria-labelledby': options.labelledBy,
          ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
          id: 'article-body',
        }),
        // Ctrl/Cmd+Shift+Z redoes, as in most editors, on every platform (CodeMirror binds it on Linux and macOS
        // only) and whatever the letter's case: with Caps Lock the key arrives as "z", which the keymap reads
        // as Ctrl+Z (undo). Ahead of the keymap for that reason.
        Prec.highest(
          EditorView.domEventHandlers({
            keydown: (e, v) => {
              if (!(e.ctrlKey || e.metaKey) || !e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z') return false;
              e.preventDefault();
              redo(v);
              return true;
            },
          }),
        ),
        EditorView.domEventHandlers({
          paste: (e) => takeImages(e, e.clipboardData, null),
          drop: (e, v) => takeImages(e, e.dataTransfer, v.posAtCoords({ x: e.clientX, y: e.clientY })),
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !quiet) options.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });

  const editor: MarkdownEditor = {
    get value() {
      return view.state.doc.toString();
    },
    setValue(text) {
      if (text === view.state.doc.toString()) return;
      quiet = true;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      quiet = false;
    },
    setFormat(format) {
      view.dispatch({ effects: lang.reconfigure(language(format)) });
    },
    wrap(before, after) {
      view.dispatch(
        view.state.changeByRange((range) => ({
          changes: [
            { from: range.from, insert: before },
            { from: range.to, insert: after },
          ],
          range: EditorSelection.range(range.from + before.length, range.to + before.length),
        })),
        // Each toolbar action or shortcut is an undo step of its own.
        { annotations: isolateHistory.of('full') },
      );
      view.focus();
    },
    prefixLines(prefix) {
      const { state } = view;
      const changes = [];
      let index = 0;
      for (const range of state.selection.ranges) {
        for (let pos = range.from; pos <= range.to; ) {
          const line = state.doc.lineAt(pos);
          changes.push({ from: line.from, insert: typeof prefix === 'string' ? prefix : prefix(index++) });
          pos = line.to + 1;
        }
      }
      const set = state.changes(changes);
      // Mapped forward: a caret where a marker went in stands after it, ready to type the item.
      view.dispatch({ changes: set, selection: state.selection.map(set, 1), annotations: isolateHistory.of('full') });
      view.focus();
    },
    link() {
      const url = 'https://';
      view.dispatch(
        view.state.changeByRange((range) => {
          const text = range.empty ? 'link text' : '';
          const before = `[${text}`;
          const after = `](${url})`;
          const urlFrom = range.to + before.length + 2;
          return {
            changes: [
              { from: range.from, insert: before },
              { from: range.to, insert: after },
            ],
            range: EditorSelection.range(urlFrom, urlFrom + url.length),
          };
        }),
        { annotations: isolateHistory.of('full') },
      );
      view.focus();
    },
    insert(text, block = false) {
      const { state } = view;
      const range = state.selection.main;
      const line = state.doc.lineAt(range.from);
      const lead = block && range.from > line.from ? '\n\n' : '';
      const insert = `${lead}${text}${block ? '\n' : ''}`;
      view.dispatch({
        changes: { from: range.from, to: range.to, insert },
        selection: { anchor: range.from + insert.length },
        scrollIntoView: true,
      });
      view.focus();
    },
    insertImage(url, alt, at) {
      const { state } = view;
      // A selection (say, the alt text of the image just inserted) is kept: the new one goes after its line.
      const sel = state.selection.main;
      const pos = at != null && at <= state.doc.length ? at : sel.empty ? sel.head : state.doc.lineAt(sel.to).to;
      const line = state.doc.lineAt(pos);
      const lead = pos > line.from ? '\n\n' : '';
      const text = `${lead}![${alt}](${url})\n`;
      const altFrom = pos + lead.length + 2;
      view.dispatch({
        changes: { from: pos, insert: text },
        selection: EditorSelection.range(altFrom, altFrom + alt.length),
        annotations: isolateHistory.of('full'),
        scrollIntoView: true,
      });
      view.focus();
    },
    replaceRange(from, to, text, select) {
      const { state } = view;
      const sel = state.selection.main;
      const set = state.changes({ from, to, insert: text });
      const inside = select && sel.from >= from && sel.to <= to;
      view.dispatch({
        changes: set,
        selection: inside ? EditorSelection.range(from + select[0], from + select[1]) : state.selection.map(set),
      });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
  // The text as a property of the host, as a textarea has `value`: the DOM holds only the lines in view.
  Object.defineProperty(parent, 'value', { get: () => editor.value, configurable: true });
  return editor;
}
