import { $, useContext, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { useLocation, usePreventNavigate$ } from '@builder.io/qwik-city';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { fieldsOfDraft, loadDraft, saveDraft } from '../../lib/article-draft';
import { type ArticleFields, EMPTY_FIELDS, fieldsOf, isBlank, mergeFields, sameFields } from '../../lib/article-fields';
import { loadArticle, type SaveOutcome, saveArticle, serialised, setOnline } from '../../lib/article-save';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import {
  deleteDraft,
  draftKey,
  draftOnOffer,
  type LocalDraft,
  readDraft,
  restoredDraft,
  writeDraft,
} from '../../lib/draft-store';
import { SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';
import { queryParam } from '../../lib/url';
import { loadCatalog } from './catalog-lists';
import type { Conflict } from './conflict-panel';
import type { SaveStateName } from './save-state';
import { useDraftActions } from './use-draft-actions';
import { useEditorKeys } from './use-editor-keys';

/** Quiet time after the last change before it is sent to the server; while typing goes on, at most this long. */
const AUTOSAVE_MS = 1500;
const AUTOSAVE_MAX_MS = 10_000;
/** The IndexedDB copy follows the keystrokes at most this late (the synchronous copy, keepNow, at once). */
const LOCAL_MS = 250;

/**
 * The editor's state and its saving: every change goes to this browser's
 * drafts at once (IndexedDB) and to the server after a pause (a new article
 * is created by its first save); only changed fields are sent, with
 * If-Match; a 412 is merged field by field and what both sides changed is
 * put to the editor; leaving with changes the server lacks saves first or
 * asks; a draft left behind is offered back and merged like a 412 when
 * restored; Ctrl/Cmd+S saves.
 */
export function useArticleEditor(isNew: boolean) {
  const loc = useLocation();
  const session = useContext(SessionContext);
  const s = {
    id: useSignal<string | null>(null),
    loading: useSignal(!isNew),
    loadError: useSignal<string | null>(null),
    article: useSignal<ArticleDto | null>(null),
    etag: useSignal<string | null>(null),
    /** The article has a pending draft (an online article's saves go there): its ETag, apart from the article's. */
    hasDraft: useSignal(false),
    draftEtag: useSignal<string | null>(null),
    /** The fields as the server has them (what changes are measured against). */
    base: useSignal<ArticleFields>(EMPTY_FIELDS),
    title: useSignal(''),
    /**
     * What the title field is set to when the editor itself fills it (load, restore, merge). Typing changes
     * `title` only: a field bound to `title` would be set back by a render that runs after more keys arrived.
     */
    titleShown: useSignal(''),
    body: useSignal(''),
    format: useSignal<ArticleFields['format']>('markdown'),
    siteId: useSignal(''),
    authorIds: useSignal<string[]>([]),
    tags: useSignal<NonNullable<ArticleFields['tags']>>([]),
    slug: useSignal(''),
    excerpt: useSignal(''),
    featureImageId: useSignal(''),
    /** The slug's problem (the API's rule, or taken), shown at the field. */
    slugError: useSignal<string | null>(null),
    titleTouched: useSignal(false),
    error: useSignal<string | null>(null),
    status: useSignal<string | null>(null),
    saveState: useSignal<SaveStateName>('saved'),
    offer: useSignal<LocalDraft | null>(null),
    conflict: useSignal<Conflict | null>(null),
    images: useSignal<ImageDto[]>([]),
    sites: useSignal<SiteDto[]>([]),
    authors: useSignal<AuthorDto[]>([]),
    nudge: useSignal(0),
    /** Loaded, and watching for changes (tests wait for it before typing). */
    ready: useSignal(false),
  };
  /** `dirtySince`: when the first change the server lacks was made (0: none), so that typing on cannot put autosave off for ever. */
  const timers = useStore({ local: 0, server: 0, dirtySince: 0, ready: false, loaded: '' });

  const current = $((): ArticleFields => {
    // The title as it is now (typing can outrun the input handler while the page resumes).
    const input = document.getElementById('article-title') as HTMLInputElement | null;
    if (input) s.title.value = input.value;
    const { title, body, format, siteId, authorIds, tags, slug, excerpt, featureImageId } = s;
    return {
      title: title.value,
      body: body.value,
      format: format.value,
      siteId: siteId.value,
      authorIds: authorIds.value,
      tags: tags.value,
      slug: slug.value,
      excerpt: excerpt.value,
      featureImageId: featureImageId.value,
    };
  });
  const key = $(() => draftKey(session.user?.id, s.id.value));

  const loadImages = $(async (articleId: string) => {
    const res = await call('get', '/v1/articles/{id}/images', { path: { id: articleId }, query: { limit: 100 } });
    if (res.ok) s.images.value = res.data.items;
  });

  const fill = $((f: ArticleFields) => {
    s.title.value = f.title;
    s.titleShown.value = f.title;
    // The field may hold typing since the last fill, which the signal alone would not replace.
    const input = document.getElementById('article-title') as HTMLInputElement | null;
    if (input) input.value = f.title;
    s.body.value = f.body;
    s.format.value = f.format;
    s.siteId.value = f.siteId;
    s.authorIds.value = [...f.authorIds];
    s.tags.value = [...(f.tags ?? [])];
    // Absent in older drafts: what the editor holds stays.
    if (f.slug !== undefined) s.slug.value = f.slug;
    if (f.excerpt !== undefined) s.excerpt.value = f.excerpt;
    if (f.featureImageId !== undefined) s.featureImageId.value = f.featureImageId;
  });

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
    // Sent again by the change watcher below (saveNow cannot be named here: it is declared later).
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
  const saveNow = $(async (manual: boolean): Promise<boolean> => {
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
    if (!keepMine) {
      const now = await current();
      for (const name of c.fields) (now as unknown as Record<string, unknown>)[name] = c.theirs[name];
      await fill(now);
    }
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

  // Writes from the side panel (schedule) hand back the article: its version names the current one, so the
  // next save's If-Match is not stale because of our own change (the ETag is `"v<version>"`, see the API).
  useVisibleTask$(({ track }) => {
    const version = track(() => s.article.value?.version);
    const known = Number(/^"v(\d+)"$/.exec(s.etag.value ?? '')?.[1] ?? 0);
    if (version && known && version > known) s.etag.value = `"v${version}"`;
  });

  useVisibleTask$(({ track }) => {
    track(() => [
      s.body.value,
      s.format.value,
      s.siteId.value,
      s.authorIds.value,
      s.tags.value,
      s.slug.value,
      s.excerpt.value,
      s.featureImageId.value,
      s.nudge.value,
    ]);
    void changed();
  });

  // Leaving: a link or Back inside the admin saves first and asks only when that fails; a reload,
  // a closed tab or another site gets the browser's own question while the server lacks changes.
  usePreventNavigate$((url) => {
    // Read here and now (not only the save state): typing can come before the editor has finished loading.
    const title = (document.getElementById('article-title') as HTMLInputElement | null)?.value ?? s.title.value;
    const now = {
      title,
      body: s.body.value,
      format: s.format.value,
      siteId: s.siteId.value,
      authorIds: s.authorIds.value,
      tags: s.tags.value,
      slug: s.slug.value,
      excerpt: s.excerpt.value,
      featureImageId: s.featureImageId.value,
    };
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

  return {
    ...s,
    key,
    fill,
    changed,
    merge,
    saveNow,
    publish,
    update,
    discard,
    takeDraft,
    resolve,
    restore,
    loadImages,
  };
}
