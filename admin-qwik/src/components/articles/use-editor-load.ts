import { type QRL, useContext, useVisibleTask$ } from '@builder.io/qwik';
import { useLocation } from '@builder.io/qwik-city';
import { fieldsOfDraft, loadDraft } from '../../lib/article-draft';
import { fieldsOf } from '../../lib/article-fields';
import { loadArticle } from '../../lib/article-save';
import { draftOnOffer, readDraft } from '../../lib/draft-store';
import { SessionContext } from '../../lib/session';
import { queryParam } from '../../lib/url';
import { loadCatalog } from './catalog-lists';
import type { EditorState } from './editor-state';

/**
 * The editor's load, once per account and address: sites and authors, the
 * article and its pending draft (what the editor edits when there is one),
 * its images, and a draft this browser kept (offered back). Then the editor
 * watches for changes (`ready`).
 */
export function useEditorLoad(
  isNew: boolean,
  { s, timers, fill, key, loadImages }: EditorState,
  changed: QRL<() => Promise<void>>,
): void {
  const loc = useLocation();
  const session = useContext(SessionContext);
  useVisibleTask$(
    async ({ track }) => {
      track(() => loc.url.href);
      // Drafts are kept per account: wait until the shell knows who is signed in.
      const userId = track(() => session.user?.id);
      if (!userId || timers.loaded === `${userId} ${loc.url.href}`) return;
      timers.loaded = `${userId} ${loc.url.href}`;
      const catalog = await loadCatalog();
      s.sites.value = catalog.sites;
      s.authors.value = catalog.authors;
      if (catalog.error) s.error.value = `Sites or authors could not be loaded: ${catalog.error}`;
      if (!isNew) {
        const articleId = queryParam('id');
        s.id.value = articleId;
        if (!articleId) {
          s.loading.value = false;
          s.loadError.value = 'No article was named in the address.';
          return;
        }
        const res = await loadArticle(articleId);
        s.loading.value = false;
        if (!res.ok) {
          s.loadError.value = res.status === 404 ? 'This article does not exist (any more).' : res.message;
          return;
        }
        s.article.value = res.article;
        s.etag.value = res.etag;
        s.base.value = fieldsOf(res.article);
        // A pending draft is what the editor edits (an online article's changes wait there for "Update").
        const pending = await loadDraft(articleId);
        if (!pending.ok) s.error.value = `The article's draft could not be loaded: ${pending.message}`;
        else if (pending.draft) {
          s.base.value = await fieldsOfDraft(pending.draft, s.base.value.tags ?? []);
          s.hasDraft.value = true;
          s.draftEtag.value = pending.etag;
        }
        await fill(s.base.value);
        await loadImages(articleId);
      }
      const draft = await readDraft(await key());
      if (draft && draftOnOffer(draft, s.base.value)) s.offer.value = draft;
      timers.ready = true;
      s.ready.value = true;
      // Whatever was typed into a new article while this loaded.
      await changed();
    },
    { strategy: 'document-ready' },
  );
}
