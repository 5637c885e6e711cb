import { $, type QRL, type Signal } from '@builder.io/qwik';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { DraftDto } from '../../../../worker/src/features/articles/article-draft.schema';
import { discardDraft, fieldsOfDraft, publishDraft } from '../../lib/article-draft';
import { type ArticleFields, fieldsOf } from '../../lib/article-fields';
import { serialised } from '../../lib/article-save';
import { deleteDraft } from '../../lib/draft-store';
import type { SaveStateName } from './save-state';

/** What of the editor's state the draft's actions use (see use-article-editor.ts). */
interface DraftState {
  s: {
    id: Signal<string | null>;
    article: Signal<ArticleDto | null>;
    etag: Signal<string | null>;
    base: Signal<ArticleFields>;
    hasDraft: Signal<boolean>;
    draftEtag: Signal<string | null>;
    saveState: Signal<SaveStateName>;
    error: Signal<string | null>;
    status: Signal<string | null>;
  };
  saveNow: QRL<(manual: boolean) => Promise<boolean>>;
  fill: QRL<(f: ArticleFields) => void>;
  key: QRL<() => string>;
}

/**
 * "Update" (the pending draft, saved first, made live in one write) and
 * "Discard changes" (the draft dropped, the editor back to the live version).
 */
export function useDraftActions({ s, saveNow, fill, key }: DraftState) {
  /** `announce`: the outcome is said and focused (false when Publish goes on with the article). */
  const update = $(async (announce = true): Promise<boolean> => {
    s.error.value = null;
    s.status.value = null;
    if (!(await saveNow(true))) {
      if (!s.error.value) s.error.value = 'Nothing was put online: the changes could not be saved first.';
      return false;
    }
    const id = s.id.value;
    if (!id || !s.hasDraft.value) return true;
    const res = await serialised(() => publishDraft(id, s.draftEtag.value));
    if (!res.ok) {
      s.error.value = res.message;
      return false;
    }
    s.hasDraft.value = false;
    s.draftEtag.value = null;
    if (res.article) {
      s.article.value = res.article;
      s.base.value = fieldsOf(res.article);
    }
    s.etag.value = res.etag;
    await deleteDraft(await key());
    if (announce) {
      s.status.value = 'Updated: your changes are online.';
      document.getElementById('editor-status')?.focus();
    }
    return true;
  });

  const discard = $(async () => {
    s.error.value = null;
    s.status.value = null;
    const id = s.id.value;
    const live = s.article.value;
    if (!id || !live) return;
    if (s.hasDraft.value) {
      const res = await serialised(() => discardDraft(id, s.draftEtag.value));
      if (!res.ok) {
        s.error.value = res.message;
        return;
      }
    }
    s.hasDraft.value = false;
    s.draftEtag.value = null;
    s.base.value = fieldsOf(live);
    await fill(s.base.value);
    await deleteDraft(await key());
    s.saveState.value = 'saved';
    s.status.value = 'Changes discarded: the editor shows the live version.';
    document.getElementById('editor-status')?.focus();
  });

  /** A draft made elsewhere (a revision restored) becomes what the editor edits. */
  const takeDraft = $(async (draft: DraftDto, etag: string | null) => {
    s.base.value = await fieldsOfDraft(draft, s.base.value.tags ?? []);
    s.hasDraft.value = true;
    s.draftEtag.value = etag;
    await fill(s.base.value);
    await deleteDraft(await key());
    s.status.value = 'Revision restored as the draft: Update puts it online.';
  });

  return { update, discard, takeDraft };
}
