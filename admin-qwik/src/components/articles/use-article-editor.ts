import { $, useVisibleTask$ } from '@builder.io/qwik';
import { usePreventNavigate$ } from '@builder.io/qwik-city';
import { isBlank, sameFields, takeTheirs } from '../../lib/article-fields';
import { serialised, setOnline } from '../../lib/article-save';
import { type LocalDraft, restoredDraft, writeDraft } from '../../lib/draft-store';
import { fieldsOnPage, useEditorState } from './editor-state';
import { useDraftActions } from './use-draft-actions';
import { useEditorKeys } from './use-editor-keys';
import { useEditorLoad } from './use-editor-load';
import { useSavePipeline } from './use-save-pipeline';

/** Quiet time after the last change before it is sent to the server; while typing goes on, at most this long. */
const AUTOSAVE_MS = 1500;
const AUTOSAVE_MAX_MS = 10_000;
/** The IndexedDB copy follows the keystrokes at most this late (the synchronous copy, keepNow, at once). */
const LOCAL_MS = 250;

/**
 * The editor's state and its saving: every change goes to this browser's
 * drafts at once (IndexedDB) and to the server after a pause (a new article
 * is created by its first save; use-save-pipeline.ts); leaving with changes
 * the server lacks saves first or asks; a draft left behind is offered back
 * and merged like a 412 when restored; Ctrl/Cmd+S saves. The state is in
 * editor-state.ts, the load in use-editor-load.ts.
 */
export function useArticleEditor(isNew: boolean) {
  const state = useEditorState(isNew);
  const { s, timers, current, key, fill } = state;
  const { apply, saveNow } = useSavePipeline(state);

  /** After each change: to this browser's drafts soon, to the server after a pause. */
  const changed = $(async () => {
    if (!timers.ready) return;
    const now = await current();
    const dirty = !sameFields(s.base.value, now);
    if (!s.conflict.value) s.saveState.value = dirty ? 'pending' : 'saved';
    clearTimeout(timers.server);
    if (!dirty) {
      timers.dirtySince = 0;
      return;
    }
    // With the server's version it was edited from, so that restoring it later merges field by field. Not put
    // off by the next keystroke: written within LOCAL_MS of the first change however fast one types.
    if (!timers.local)
      timers.local = window.setTimeout(async () => {
        timers.local = 0;
        await writeDraft(await key(), await current(), s.id.value ? s.base.value : undefined);
      }, LOCAL_MS);
    // After a pause, or while typing goes on once AUTOSAVE_MAX_MS have passed since the first unsaved change.
    const at = Date.now();
    if (!timers.dirtySince) timers.dirtySince = at;
    const wait = Math.max(0, Math.min(AUTOSAVE_MS, timers.dirtySince + AUTOSAVE_MAX_MS - at));
    timers.server = window.setTimeout(() => saveNow(false), wait);
  });

  /** The choice on a conflict: keep this editor's version of the contested fields, or take theirs. */
  const resolve = $(async (keepMine: boolean) => {
    const c = s.conflict.value;
    if (!c) return;
    if (!keepMine) await fill(takeTheirs(await current(), c.theirs, c.fields));
    s.conflict.value = null;
    await saveNow(true);
  });

  /**
   * A draft this browser kept, restored: what it changed from the version it was made from comes back,
   * what only the server changed since stays, and what both changed is put to the editor as after a 412.
   */
  const restore = $(async (draft: LocalDraft) => {
    s.offer.value = null;
    const { fields, conflicts } = restoredDraft(s.id.value ? draft : { ...draft, base: undefined }, s.base.value);
    await fill(fields);
    if (conflicts.length) {
      s.conflict.value = { theirs: s.base.value, mine: fields, fields: conflicts, source: 'draft' };
      s.saveState.value = 'failed';
    }
    await changed();
  });

  const { update, discard, takeDraft } = useDraftActions({ s, saveNow, fill, key });

  const publish = $(async (online: boolean) => {
    s.error.value = null;
    s.status.value = null;
    if (online && !(await saveNow(true))) {
      if (!s.error.value && !s.conflict.value)
        s.error.value = 'The article was not published: it could not be saved first.';
      return;
    }
    const id = s.id.value;
    if (!id) return;
    // An offline article with a pending draft: the draft is what goes online.
    if (online && s.hasDraft.value && !(await update(false))) return;
    const res = await serialised(() => setOnline(id, online, s.etag.value));
    if (res.kind !== 'done') {
      await apply(res, true);
      return;
    }
    // No answer body: done, but this account may not read the article as it now stands.
    if (res.article) s.article.value = res.article;
    s.etag.value = res.etag;
    s.status.value = online ? 'Saved and published: the article is online.' : 'Unpublished: the article is offline.';
    // The button that was pressed goes away with the new status: the focus goes to the outcome, not the page.
    document.getElementById('editor-status')?.focus();
  });

  // The editor's tasks run on document ready, as its load does: a reload keeps the page's scroll position,
  // and a task run when an element comes into view may wait for one that is never shown.
  // Writes from the side panel (schedule) hand back the article: its version names the current one, so the
  // next save's If-Match is not stale because of our own change (the ETag is `"v<version>"`, see the API).
  useVisibleTask$(
    ({ track }) => {
      const version = track(() => s.article.value?.version);
      const known = Number(/^"v(\d+)"$/.exec(s.etag.value ?? '')?.[1] ?? 0);
      if (version && known && version > known) s.etag.value = `"v${version}"`;
    },
    { strategy: 'document-ready' },
  );

  useVisibleTask$(
    ({ track }) => {
      track(() => [
        s.body.value,
        s.format.value,
        s.siteId.value,
        s.authorIds.value,
        s.tags.value,
        s.slug.value,
        s.excerpt.value,
        s.featureImageId.value,
        s.seo.value,
        s.nudge.value,
      ]);
      void changed();
    },
    { strategy: 'document-ready' },
  );

  // Leaving: a link or Back inside the admin saves first and asks only when that fails; a reload,
  // a closed tab or another site gets the browser's own question while the server lacks changes.
  usePreventNavigate$((url) => {
    // Read here and now (not only the save state): typing can come before the editor has finished loading.
    const now = fieldsOnPage(s);
    const blankNew = !s.id.value && isBlank(now);
    if (blankNew || (s.saveState.value === 'saved' && sameFields(s.base.value, now))) return false;
    if (!url) return true;
    return saveNow(false).then(
      (saved) =>
        !saved &&
        !window.confirm('Your latest changes are not saved on the server (this browser keeps them). Leave anyway?'),
    );
  });

  useEditorKeys({ s, timers, saveNow });
  useEditorLoad(isNew, state, changed);

  return {
    ...s,
    key,
    fill,
    changed,
    saveNow,
    publish,
    update,
    discard,
    takeDraft,
    resolve,
    restore,
    loadImages: state.loadImages,
  };
}
