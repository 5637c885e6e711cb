import { $, type QRL } from '@builder.io/qwik';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import { saveDraft } from '../../lib/article-draft';
import { fieldsOf, isBlank, mergeFields, sameFields } from '../../lib/article-fields';
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
  /** A 412: their version becomes the base; what only they changed comes in, what both changed is asked. */
  const merge = $(async (theirs: ArticleDto, etag: string | null) => {
    const mine = await current();
    const { merged, conflicts } = mergeFields(s.base.value, mine, fieldsOf(theirs));
    s.base.value = fieldsOf(theirs);
    s.etag.value = etag;
    s.article.value = theirs;
    await fill(merged);
    if (conflicts.length) {
      s.conflict.value = { theirs: fieldsOf(theirs), mine: merged, fields: conflicts };
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
    s.slugError.value = outcome.kind !== 'saved' && 'field' in outcome && outcome.field ? outcome.message : null;
    if (outcome.kind === 'invalid') {
      s.saveState.value = 'local';
      if (outcome.field === 'slug') {
        if (manual) document.getElementById('content-slug')?.focus();
        return false;
      }
      if (manual) {
        s.titleTouched.value = true;
        document.getElementById('article-title')?.focus();
      }
      return false;
    }
    if (outcome.kind === 'conflict' && outcome.current) {
      await merge(outcome.current, outcome.etag);
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
