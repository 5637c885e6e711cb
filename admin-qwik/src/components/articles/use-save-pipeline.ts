import { $, type QRL } from '@builder.io/qwik';
import { saveDraft } from '../../lib/article-draft';
import { type ArticleFields, isBlank, mergeFields, sameFields } from '../../lib/article-fields';
import { type SaveOutcome, saveArticle, serialised } from '../../lib/article-save';
import { deleteDraft } from '../../lib/draft-store';
import type { EditorState } from './editor-state';

/**
 * The editor's saves: only changed fields are sent, with If-Match, to the
 * article or (an online article) to its draft; each outcome is applied
 * (new id, new base and ETag, a problem shown at its field); a 412 is
 * merged field by field and what both sides changed is put to the editor.
 */
export function useSavePipeline({ s, timers, current, fill, key, loadImages }: EditorState) {
  /**
   * A 412: their version (the article's, or the draft's) becomes the base; what only they changed comes in,
   * what only this editor changed stays, and what both changed is put to the editor (kept as mine until then).
   */
  const merge = $(async (c: Extract<SaveOutcome, { kind: 'conflict' }>, theirs: ArticleFields) => {
    const mine = await current();
    const { merged, conflicts } = mergeFields(s.base.value, mine, theirs);
    s.base.value = theirs;
    if (c.draft) {
      s.hasDraft.value = true;
      s.draftEtag.value = c.etag;
    } else {
      // The draft is gone (made live or discarded elsewhere): the next save starts another from the live version.
      if (c.draft === false) {
        s.hasDraft.value = false;
        s.draftEtag.value = null;
      }
      s.etag.value = c.etag;
      if (c.article) s.article.value = c.article;
    }
    await fill(merged);
    if (conflicts.length) {
      s.conflict.value = { theirs, mine: merged, fields: conflicts };
      s.saveState.value = 'failed';
      return;
    }
    s.status.value = 'Merged with changes someone else saved meanwhile.';
    s.saveState.value = 'pending';
    // Sent again by the editor's change watcher (saveNow would run inside the save that found the 412).
    s.nudge.value++;
  });

  /** Applies one save's outcome; true when the server now holds what was sent. */
  const apply = $(async (outcome: SaveOutcome, manual: boolean): Promise<boolean> => {
    if (outcome.kind === 'unchanged') {
      s.saveState.value = 'saved';
      return true;
    }
    const field = outcome.kind !== 'saved' && 'field' in outcome ? outcome.field : undefined;
    s.slugError.value = field === 'slug' ? (outcome as { message: string }).message : null;
    s.seoIssues.value = outcome.kind === 'invalid' && outcome.field === 'seo' ? (outcome.issues ?? []) : [];
    if (outcome.kind === 'invalid') {
      s.saveState.value = 'local';
      if (outcome.field === 'slug' || outcome.field === 'seo') {
        const first = outcome.field === 'slug' ? 'content-slug' : `seo-${outcome.issues?.[0]?.path}`;
        if (manual) document.getElementById(first)?.focus();
        return false;
      }
      if (manual) {
        s.titleTouched.value = true;
        document.getElementById('article-title')?.focus();
      }
      return false;
    }
    if (outcome.kind === 'conflict' && outcome.theirs) {
      await merge(outcome, outcome.theirs);
      return false;
    }
    if (outcome.kind !== 'saved') {
      s.saveState.value = 'failed';
      s.error.value =
        outcome.kind === 'conflict'
          ? 'Someone else changed this article meanwhile, and it could not be read again. Your text is kept here.'
          : outcome.status === 401
            ? 'You are signed out: your text is kept in this browser. Sign in again to save it.'
            : outcome.message;
      return false;
    }
    const oldKey = await key();
    s.id.value = outcome.id;
    s.base.value = outcome.sent;
    if (outcome.draft) {
      s.hasDraft.value = true;
      s.draftEtag.value = outcome.etag;
    } else s.etag.value = outcome.etag;
    if (outcome.article) s.article.value = outcome.article;
    s.error.value = null;
    if (outcome.created) {
      // The address names the article now, without a reload (which would drop the focus and the caret).
      history.replaceState(history.state, '', `/articles/edit?id=${encodeURIComponent(outcome.id)}`);
      await deleteDraft(oldKey);
      await loadImages(outcome.id);
    }
    if (sameFields(await current(), outcome.sent)) {
      s.saveState.value = 'saved';
      await deleteDraft(await key());
    } else s.saveState.value = 'pending';
    return true;
  });

  /** Saves now (autosave, Ctrl/Cmd+S, Save, Publish, leaving); true when the server has everything. */
  const saveNow: QRL<(manual: boolean) => Promise<boolean>> = $(async (manual: boolean): Promise<boolean> => {
    clearTimeout(timers.server);
    timers.dirtySince = 0;
    if (manual) {
      s.titleTouched.value = true;
      s.status.value = null;
    }
    // While both versions are on screen nothing is sent: the editor chooses first.
    if (s.conflict.value) return false;
    return serialised(async () => {
      const now = await current();
      if (!s.id.value && isBlank(now)) return true;
      s.saveState.value = 'saving';
      // A live article is never edited by a save: its changes go to its draft until "Update".
      const id = s.id.value;
      const outcome =
        id && (s.article.value?.status === 'online' || s.hasDraft.value)
          ? await saveDraft(id, s.base.value, now, s.draftEtag.value)
          : await saveArticle(id, s.base.value, now, s.etag.value);
      const ok = await apply(outcome, manual);
      if (ok && manual) s.status.value = 'Saved.';
      return ok && sameFields(s.base.value, await current());
    });
  });

  return { merge, apply, saveNow };
}
