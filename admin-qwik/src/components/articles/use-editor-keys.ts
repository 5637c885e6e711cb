import { type QRL, type Signal, useContext, useVisibleTask$ } from '@builder.io/qwik';
import { type ArticleFields, isBlank, sameFields } from '../../lib/article-fields';
import { draftKey, keepNow } from '../../lib/draft-store';
import type { SeoValues } from '../../lib/seo-merge';
import { SessionContext } from '../../lib/session';
import { bodyChanged } from './body-editor';
import { fieldsOnPage } from './editor-state';
import type { SaveStateName } from './save-state';

/** What of the editor's state these listeners read (see use-article-editor.ts). */
interface EditorState {
  s: {
    id: Signal<string | null>;
    base: Signal<ArticleFields>;
    title: Signal<string>;
    body: Signal<string>;
    format: Signal<ArticleFields['format']>;
    siteId: Signal<string>;
    authorIds: Signal<string[]>;
    tags: Signal<NonNullable<ArticleFields['tags']>>;
    slug: Signal<string>;
    excerpt: Signal<string>;
    featureImageId: Signal<string>;
    seo: Signal<SeoValues>;
    saveState: Signal<SaveStateName>;
    conflict: Signal<unknown>;
    keeping: Signal<boolean>;
  };
  timers: { ready: boolean };
  saveNow: QRL<(manual: boolean) => Promise<boolean>>;
}

/**
 * The editor's plain (synchronous) listeners: Ctrl/Cmd+S, back online, and
 * every keystroke kept in this browser at once.
 */
export function useEditorKeys({ s, timers, saveNow }: EditorState): void {
  const session = useContext(SessionContext);

  // Ctrl/Cmd+S saves. A plain listener: the browser's own "Save page" must be stopped while the event runs.
  // Back online, what the server lacks is sent without waiting for a keystroke.
  useVisibleTask$(
    ({ cleanup }) => {
      const onKey = (e: KeyboardEvent) => {
        if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
          e.preventDefault();
          void saveNow(true);
        }
      };
      const onOnline = () => {
        if (timers.ready && s.saveState.value !== 'saved' && !s.conflict.value) void saveNow(false);
      };
      window.addEventListener('keydown', onKey);
      window.addEventListener('online', onOnline);
      cleanup(() => {
        window.removeEventListener('keydown', onKey);
        window.removeEventListener('online', onOnline);
      });
    },
    { strategy: 'document-ready' },
  );

  // Every keystroke in the title or the body is kept in this browser at once, synchronously (a plain
  // listener and CodeMirror's own change callback: Qwik's handlers run later, and a tab closed a moment
  // after the last key would not wait for them).
  useVisibleTask$(
    ({ cleanup }) => {
      const keep = () => {
        if (!timers.ready) return;
        // Read from the page: Qwik's own input handlers, which set the signals, run a moment later.
        const fields = fieldsOnPage(s);
        if (sameFields(s.base.value, fields) || (!s.id.value && isBlank(fields))) return;
        keepNow(draftKey(session.user?.id, s.id.value), fields, s.id.value ? s.base.value : undefined);
      };
      const onInput = (e: Event) => {
        // The title and the text fields of the side panel (the body tells through bodyChanged).
        const id = (e.target as HTMLElement | null)?.id ?? '';
        if (id === 'article-title' || id.startsWith('content-') || id.startsWith('seo-')) keep();
      };
      document.addEventListener('input', onInput, true);
      bodyChanged.listener = keep;
      // A task of its own, which may run after the editor has loaded: until then a keystroke is not kept.
      s.keeping.value = true;
      cleanup(() => {
        s.keeping.value = false;
        document.removeEventListener('input', onInput, true);
        if (bodyChanged.listener === keep) bodyChanged.listener = null;
      });
    },
    { strategy: 'document-ready' },
  );
}
