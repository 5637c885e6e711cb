import { $, component$, useContext, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { Link, useLocation, useNavigate, usePreventNavigate$ } from '@builder.io/qwik-city';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { type ArticleFields, EMPTY_FIELDS, fieldsOf, isBlank, sameFields } from '../../lib/article-fields';
import { loadArticle, type SaveOutcome, saveArticle, serialised, setOnline } from '../../lib/article-save';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { deleteDraft, draftKey, type LocalDraft, readDraft, writeDraft } from '../../lib/draft-store';
import { SessionContext } from '../../lib/session';
import { titleProblem } from '../../lib/title';
import { call } from '../../lib/typed-api';
import { queryParam } from '../../lib/url';
import { LoadingNotice } from '../status/loading-notice';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError, Status } from '../ui/form-error';
import { ArticlePreview } from '../ui/markdown-preview';
import { AuthorPicker } from './author-picker';
import { loadCatalog } from './catalog-lists';
import { DraftOffer } from './draft-offer';
import { ImageUploader } from './image-uploader';
import { ReauthDialog } from './reauth-dialog';
import { ScheduleAndPreview } from './schedule-and-preview';
import { SeoPanel } from './seo-panel';

/** Quiet time after the last change before it is sent to the server, and before it is written to this browser. */
const AUTOSAVE_MS = 1500;
const LOCAL_MS = 250;

/**
 * The article editor for `/articles/new` and `/articles/edit?id=…`. Nothing
 * typed is lost: every change goes to this browser's drafts at once
 * (IndexedDB) and to the server after a pause (a new article is created by
 * its first save, so images can be added from then on); leaving with
 * changes the server does not have asks first; a draft left behind is
 * offered back; Ctrl/Cmd+S saves; Publish saves first.
 */
export const ArticleEditor = component$((props: { isNew: boolean }) => {
  const loc = useLocation();
  const nav = useNavigate();
  const session = useContext(SessionContext);
  const id = useSignal<string | null>(null);
  const loading = useSignal(!props.isNew);
  const loadError = useSignal<string | null>(null);
  const article = useSignal<ArticleDto | null>(null);
  const etag = useSignal<string | null>(null);
  /** The fields as the server has them (what changes are measured against). */
  const base = useSignal<ArticleFields>(EMPTY_FIELDS);
  const title = useSignal('');
  const body = useSignal('');
  const format = useSignal<ArticleFields['format']>('markdown');
  const siteId = useSignal('');
  const authorIds = useSignal<string[]>([]);
  const titleTouched = useSignal(false);
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const saveState = useSignal<'saved' | 'pending' | 'saving' | 'local' | 'failed'>('saved');
  const offer = useSignal<LocalDraft | null>(null);
  const images = useSignal<ImageDto[]>([]);
  const sites = useSignal<SiteDto[]>([]);
  const authors = useSignal<AuthorDto[]>([]);
  const timers = useStore({ local: 0, server: 0, ready: false });

  const current = $((): ArticleFields => {
    // The title as it is now (typing can outrun the input handler while the page resumes).
    const input = document.getElementById('article-title') as HTMLInputElement | null;
    if (input) title.value = input.value;
    return {
      title: title.value,
      body: body.value,
      format: format.value,
      siteId: siteId.value,
      authorIds: authorIds.value,
    };
  });
  const key = $(() => draftKey(session.user?.id, id.value));

  const loadImages = $(async (articleId: string) => {
    const res = await call('get', '/v1/articles/{id}/images', { path: { id: articleId }, query: { limit: '100' } });
    if (res.ok) images.value = res.data.items;
  });

  const fill = $((f: ArticleFields) => {
    title.value = f.title;
    body.value = f.body;
    format.value = f.format;
    siteId.value = f.siteId;
    authorIds.value = [...f.authorIds];
  });

  /** Applies one save's outcome; true when the server now holds what was sent. */
  const apply = $(async (outcome: SaveOutcome, manual: boolean): Promise<boolean> => {
    if (outcome.kind === 'unchanged') {
      saveState.value = 'saved';
      return true;
    }
    if (outcome.kind === 'invalid') {
      saveState.value = 'local';
      if (manual) {
        titleTouched.value = true;
        document.getElementById('article-title')?.focus();
      }
      return false;
    }
    if (outcome.kind === 'failed' || outcome.kind === 'conflict') {
      saveState.value = 'failed';
      error.value =
        outcome.kind === 'conflict'
          ? 'Someone else saved this article meanwhile. Your text is kept here; reload to see theirs.'
          : outcome.status === 401
            ? 'You are signed out: your text is kept in this browser. Sign in again to save it.'
            : outcome.message;
      return false;
    }
    const oldKey = await key();
    id.value = outcome.id;
    base.value = outcome.sent;
    etag.value = outcome.etag;
    if (outcome.article) article.value = outcome.article;
    error.value = null;
    if (outcome.created) {
      // The address names the article now, without a reload (which would drop the focus and the caret).
      history.replaceState(history.state, '', `/articles/edit?id=${encodeURIComponent(outcome.id)}`);
      await deleteDraft(oldKey);
      await loadImages(outcome.id);
    }
    const now = await current();
    if (sameFields(now, outcome.sent)) {
      saveState.value = 'saved';
      await deleteDraft(await key());
    } else saveState.value = 'pending';
    return true;
  });

  /** Saves now (autosave, Ctrl/Cmd+S, Save, Publish, leaving); true when the server has everything. */
  const saveNow = $(async (manual: boolean): Promise<boolean> => {
    clearTimeout(timers.server);
    if (manual) {
      titleTouched.value = true;
      status.value = null;
    }
    return serialised(async () => {
      const now = await current();
      if (!id.value && isBlank(now)) return true;
      saveState.value = 'saving';
      const ok = await apply(await saveArticle(id.value, base.value, now, etag.value), manual);
      if (ok && manual) status.value = 'Saved.';
      return ok && sameFields(base.value, await current());
    });
  });

  /** After each change: to this browser's drafts soon, to the server after a pause. */
  const changed = $(async () => {
    if (!timers.ready) return;
    const now = await current();
    const dirty = !sameFields(base.value, now);
    saveState.value = dirty ? 'pending' : 'saved';
    clearTimeout(timers.local);
    clearTimeout(timers.server);
    if (!dirty) return;
    timers.local = window.setTimeout(async () => writeDraft(await key(), await current()), LOCAL_MS);
    timers.server = window.setTimeout(() => saveNow(false), AUTOSAVE_MS);
  });

  useVisibleTask$(({ track }) => {
    track(() => [body.value, format.value, siteId.value, authorIds.value]);
    void changed();
  });

  // Leaving: a link or Back inside the admin saves first and asks only when that fails; a reload,
  // a closed tab or another site gets the browser's own question while the server lacks changes.
  usePreventNavigate$((url) => {
    if (saveState.value === 'saved' || !timers.ready) return false;
    if (!url) return true;
    return saveNow(false).then(
      (saved) =>
        !saved &&
        !window.confirm('Your latest changes are not saved on the server (this browser keeps them). Leave anyway?'),
    );
  });

  // Ctrl/Cmd+S saves. A plain listener: the browser's own "Save page" must be stopped while the event runs.
  useVisibleTask$(({ cleanup }) => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void saveNow(true);
      }
    };
    window.addEventListener('keydown', onKey);
    cleanup(() => window.removeEventListener('keydown', onKey));
  });

  useVisibleTask$(
    async ({ track }) => {
      track(() => loc.url.href);
      // Drafts are kept per account: wait until the shell knows who is signed in.
      if (!track(() => session.user?.id)) return;
      const catalog = await loadCatalog();
      sites.value = catalog.sites;
      authors.value = catalog.authors;
      if (catalog.error) error.value = `Sites or authors could not be loaded: ${catalog.error}`;
      const articleId = props.isNew ? null : queryParam('id');
      if (!props.isNew) {
        id.value = articleId;
        if (!articleId) {
          loading.value = false;
          loadError.value = 'No article was named in the address.';
          return;
        }
        const res = await loadArticle(articleId);
        loading.value = false;
        if (!res.ok) {
          loadError.value = res.status === 404 ? 'This article does not exist (any more).' : res.message;
          return;
        }
        article.value = res.article;
        etag.value = res.etag;
        base.value = fieldsOf(res.article);
        await fill(base.value);
        await loadImages(articleId);
      }
      const draft = await readDraft(await key());
      if (draft && !sameFields(draft.fields, base.value) && !isBlank(draft.fields)) offer.value = draft;
      timers.ready = true;
      // Whatever was typed into a new article while this loaded.
      await changed();
    },
    { strategy: 'document-ready' },
  );

  const publish = $(async (online: boolean) => {
    error.value = null;
    status.value = null;
    if (online && !(await saveNow(true))) {
      if (!error.value) error.value = 'The article was not published: it could not be saved first.';
      return;
    }
    if (!id.value) return;
    const res = await serialised(() => setOnline(id.value!, online, etag.value));
    if (res.kind !== 'done') {
      await apply(res, true);
      return;
    }
    // No answer body: done, but this account may not read the article as it now stands.
    if (res.article) article.value = res.article;
    etag.value = res.etag;
    status.value = online ? 'Saved and published: the article is online.' : 'Unpublished: the article is offline.';
  });

  const problem = titleProblem(title.value);
  const showTitleError = titleTouched.value && !!problem;
  const a = article.value;

  if (loading.value)
    return (
      <div>
        <LoadingNotice>Loading the article…</LoadingNotice>
      </div>
    );
  if (loadError.value)
    return (
      <div>
        <h1>Edit article</h1>
        <FormError message={loadError.value} />
        <p>
          <Link href="/articles">Back to the articles</Link>
        </p>
      </div>
    );

  return (
    <div>
      <p>
        <Link href="/articles">← Articles</Link>
      </p>
      <div class="page-head">
        <h1>{id.value ? 'Edit article' : 'New article'}</h1>
        {a && (
          <span class={['badge', a.status === 'online' ? 'badge-ok' : '']} data-testid="article-status">
            {a.status}
          </span>
        )}
        <SaveState state={saveState.value} />
      </div>
      {offer.value && (
        <DraftOffer
          draft={offer.value}
          onRestore$={async () => {
            await fill(offer.value!.fields);
            offer.value = null;
            await changed();
          }}
          onDiscard$={async () => {
            offer.value = null;
            await deleteDraft(await key());
          }}
        />
      )}
      <form
        class="editor"
        preventdefault:submit
        noValidate
        onInput$={(_, form) => {
          title.value = (form.querySelector('#article-title') as HTMLInputElement).value;
          void changed();
        }}
        onSubmit$={() => saveNow(true)}
      >
        <div class="field">
          <label for="article-title">Title</label>
          <input
            id="article-title"
            type="text"
            required
            aria-invalid={showTitleError}
            aria-describedby={showTitleError ? 'article-title-error' : undefined}
            value={title.value}
            onBlur$={() => (titleTouched.value = true)}
          />
          {showTitleError && (
            <p id="article-title-error" class="field-error" role="alert">
              {problem}
            </p>
          )}
        </div>
        <div class="field">
          <label for="article-format">Format</label>
          <select id="article-format" value={format.value} onChange$={(_, el) => (format.value = el.value as 'html')}>
            <option value="markdown">Markdown</option>
            <option value="html">HTML</option>
            <option value="plaintext">Plain text</option>
          </select>
        </div>
        <div class="field">
          <label for="article-site">Site</label>
          <select id="article-site" value={siteId.value} onChange$={(_, el) => (siteId.value = el.value)}>
            <option value="">No site</option>
            {sites.value.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
            {siteId.value && !sites.value.some((x) => x.id === siteId.value) && (
              <option value={siteId.value}>Unknown site</option>
            )}
          </select>
        </div>
        <AuthorPicker authors={authors.value} selected={authorIds} />
        <div class="editor-panes">
          <div class="field">
            <label for="article-body">Body</label>
            <textarea id="article-body" rows={16} value={body.value} onInput$={(_, el) => (body.value = el.value)} />
          </div>
          <section class="field" aria-labelledby="preview-heading">
            <h2 id="preview-heading" class="label-like">
              Preview
            </h2>
            <div data-testid="preview">
              <ArticlePreview body={body.value} format={format.value} />
            </div>
          </section>
        </div>
        <FormError message={error.value} />
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={saveState.value === 'saving'}>
            {saveState.value === 'saving' ? 'Saving…' : 'Save'}
          </button>
          {a?.status !== 'online' ? (
            <ConfirmButton
              label="Publish"
              question="Save and put this article online?"
              confirmLabel="Yes, publish"
              onConfirm$={() => publish(true)}
            />
          ) : (
            <ConfirmButton
              label="Unpublish"
              question="Take this article offline?"
              confirmLabel="Yes, unpublish"
              onConfirm$={() => publish(false)}
            />
          )}
          {a && id.value && (
            <ConfirmButton
              label="Delete"
              question="Delete this article and its images for good?"
              confirmLabel="Yes, delete"
              danger
              onConfirm$={async () => {
                const res = await call('delete', '/v1/articles/{id}', { path: { id: id.value! }, ifMatch: etag.value });
                if (!res.ok) {
                  error.value = res.message;
                  return;
                }
                saveState.value = 'saved';
                await deleteDraft(await key());
                await nav('/articles');
              }}
            />
          )}
        </div>
      </form>
      <Status message={status.value} testId="editor-status" />
      {id.value ? (
        <ImageUploader articleId={id.value} images={images} onUploaded$={() => loadImages(id.value!)} />
      ) : (
        <section class="card" aria-labelledby="images-heading">
          <h2 id="images-heading">Images</h2>
          <p>Give the article a title: it is saved as a draft, and images can be added to it.</p>
        </section>
      )}
      {a && id.value && <SeoPanel articleId={id.value} title={a.title} images={images.value} />}
      {a && id.value && <ScheduleAndPreview article={article} />}
      <ReauthDialog />
    </div>
  );
});

const SAVE_WORDS = {
  saved: 'All changes saved',
  pending: 'Unsaved changes',
  saving: 'Saving…',
  local: 'Kept in this browser only',
  failed: 'Not saved: kept in this browser',
} as const;

/** Where the text is: on the server, on its way, or only in this browser. */
const SaveState = component$((props: { state: keyof typeof SAVE_WORDS }) => (
  <span class="save-state" data-testid="save-state" data-state={props.state} role="status">
    {SAVE_WORDS[props.state]}
  </span>
));
