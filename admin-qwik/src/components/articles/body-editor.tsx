import {
  $,
  component$,
  type NoSerialize,
  noSerialize,
  type QRL,
  type Signal,
  useSignal,
  useVisibleTask$,
} from '@builder.io/qwik';
import type { ArticleFields } from '../../lib/article-fields';
import type { MarkdownEditor } from '../../lib/markdown-editor';

/** The editor in use (module state: one body editor per page), for inserting images at the caret. */
export const bodyEditor = { current: null as MarkdownEditor | null };

/** Called synchronously after each change to the text (the editor keeps every keystroke in this browser at once). */
export const bodyChanged = { listener: null as (() => void) | null };

/** Inserts `text` at the body's caret; false while the editing component is not loaded yet. */
export function insertIntoBody(text: string, block = true): boolean {
  if (!bodyEditor.current) return false;
  bodyEditor.current.insert(text, block);
  return true;
}

/** Inserts `![alt](url)` at `at` or the caret, with the alt text selected; false while the editing component is not loaded. */
export function insertImageIntoBody(url: string, alt: string, at: number | null = null): boolean {
  if (!bodyEditor.current) return false;
  bodyEditor.current.insertImage(url, alt, at);
  return true;
}

type Action = { label: string; keys?: string; run: (e: MarkdownEditor) => void };

const ACTIONS: Action[] = [
  { label: 'Bold', keys: 'Control+B', run: (e) => e.wrap('**', '**') },
  { label: 'Italic', keys: 'Control+I', run: (e) => e.wrap('_', '_') },
  { label: 'Heading', run: (e) => e.prefixLines('## ') },
  { label: 'Link', keys: 'Control+K', run: (e) => e.link() },
  { label: 'Quote', run: (e) => e.prefixLines('> ') },
  { label: 'Bulleted list', run: (e) => e.prefixLines('- ') },
  { label: 'Numbered list', run: (e) => e.prefixLines((i) => `${i + 1}. `) },
  { label: 'Code', run: (e) => e.wrap('`', '`') },
];

const GLYPHS: Record<string, string> = {
  Bold: 'B',
  Italic: 'I',
  Heading: 'H',
  Link: 'Link',
  Quote: '❝',
  'Bulleted list': '•',
  'Numbered list': '1.',
  Code: '</>',
};

/**
 * The body: a plain textarea until CodeMirror (lib/markdown-editor.ts) has
 * loaded — imported here, on the editor route only — then the CodeMirror
 * editor with a formatting toolbar and the usual shortcuts. What was typed
 * into the textarea meanwhile carries over.
 */
export const BodyEditor = component$(
  (props: {
    body: Signal<string>;
    format: Signal<ArticleFields['format']>;
    /** Image files picked with the toolbar's Image button, pasted or dropped onto the text (`at`: the drop's place). */
    onImages$: QRL<(files: File[], at: number | null) => unknown>;
  }) => {
    const host = useSignal<HTMLElement>();
    const loaded = useSignal(false);
    const mod = useSignal<NoSerialize<typeof import('../../lib/markdown-editor')>>();

    useVisibleTask$(
      async () => {
        mod.value = noSerialize(await import('../../lib/markdown-editor'));
        loaded.value = true;
      },
      { strategy: 'document-ready' },
    );

    // On document ready, as the editor's load (see use-article-editor.ts). Mount once the textarea is gone (both carry the id the label and the tests name).
    useVisibleTask$(
      ({ track, cleanup }) => {
        const ready = track(() => loaded.value);
        const el = track(() => host.value);
        if (!ready || !el || !mod.value || bodyEditor.current) return;
        const editor = mod.value.createMarkdownEditor(el, {
          doc: props.body.value,
          format: props.format.value,
          labelledBy: 'article-body-label',
          describedBy: 'article-body-hint',
          onChange: (text) => {
            props.body.value = text;
            bodyChanged.listener?.();
          },
          onImages: (files, at) => void props.onImages$(files, at),
        });
        bodyEditor.current = editor;
        el.dataset.ready = 'true';
        cleanup(() => {
          editor.destroy();
          if (bodyEditor.current === editor) bodyEditor.current = null;
        });
      },
      { strategy: 'document-ready' },
    );

    // Text set from outside (loaded, a restored draft, a merge) goes into the editor.
    useVisibleTask$(
      ({ track }) => {
        const text = track(() => props.body.value);
        const format = track(() => props.format.value);
        bodyEditor.current?.setValue(text);
        bodyEditor.current?.setFormat(format);
      },
      { strategy: 'document-ready' },
    );

    const run = $((label: string) => {
      const editor = bodyEditor.current;
      if (editor) ACTIONS.find((a) => a.label === label)?.run(editor);
    });

    return (
      <div class="field body-field">
        <label id="article-body-label" for="article-body">
          Body
        </label>
        <p id="article-body-hint" class="hint">
          {props.format.value === 'markdown'
            ? 'Markdown. Ctrl/Cmd+B bold, +I italic, +K link, +S save, +Z undo, +Shift+Z redo. Tab indents: press Esc, then Tab, to leave the text.'
            : props.format.value === 'html'
              ? 'HTML (sanitised when shown).'
              : 'Plain text: paragraphs and line breaks are kept.'}
        </p>
        {props.format.value === 'markdown' && (
          <div role="toolbar" aria-label="Markdown toolbar" aria-controls="article-body" class="body-toolbar">
            {ACTIONS.map(({ label, keys }) => (
              <button
                key={label}
                type="button"
                class="button button-quiet"
                title={keys ? `${label} (${keys})` : label}
                aria-keyshortcuts={keys}
                disabled={!loaded.value}
                preventdefault:mousedown
                // Only the label is captured: an action's function cannot be serialised into the page.
                onClick$={() => run(label)}
              >
                {/* The name is the words, not the glyph ("1." is no name for a list): no aria-label whose words are not on the button. */}
                <span aria-hidden="true">{GLYPHS[label]}</span>
                <span class="visually-hidden">{label}</span>
              </button>
            ))}
            <label for="body-image-file" class="button button-quiet" title="Insert images (or paste or drop them)">
              Image
            </label>
            <input
              id="body-image-file"
              class="visually-hidden-input"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif"
              multiple
              onChange$={async (_, el) => {
                const files = Array.from(el.files ?? []);
                el.value = '';
                if (files.length) await props.onImages$(files, null);
              }}
            />
          </div>
        )}
        {!loaded.value && (
          <textarea
            id="article-body"
            rows={16}
            aria-describedby="article-body-hint"
            value={props.body.value}
            onInput$={(_, el) => (props.body.value = el.value)}
          />
        )}
        <div ref={host} class="body-host" data-testid="body-editor" />
      </div>
    );
  },
);
