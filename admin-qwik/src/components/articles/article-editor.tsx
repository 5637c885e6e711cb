import { $, component$, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { Link, useLocation, useNavigate } from '@builder.io/qwik-city';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { titleProblem } from '../../lib/title';
import { call, type Result } from '../../lib/typed-api';
import { queryParam } from '../../lib/url';
import { LoadingNotice } from '../status/loading-notice';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError, Status } from '../ui/form-error';
import { ArticlePreview } from '../ui/markdown-preview';
import { AuthorPicker } from './author-picker';
import { ImageUploader } from './image-uploader';
import { ScheduleAndPreview } from './schedule-and-preview';
import { SeoPanel } from './seo-panel';

/** Every item of a paged list (sites, authors: small catalogues), up to `max`; `page` reads one page. */
async function loadAll<T>(
  page: (cursor: string | null) => Promise<Result<{ items: T[]; nextCursor: string | null }>>,
  max = 1000,
): Promise<{ items: T[]; error: string | null }> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const res: Result<{ items: T[]; nextCursor: string | null }> = await page(cursor);
    if (!res.ok) return { items, error: res.message };
    items.push(...res.data.items);
    cursor = res.data.nextCursor;
  } while (cursor && items.length < max);
  return { items, error: null };
}

/** The article editor for `/articles/new` and `/articles/edit?id=…`. */
export const ArticleEditor = component$((props: { isNew: boolean }) => {
  const loc = useLocation();
  const nav = useNavigate();
  const id = useSignal<string | null>(null);
  const loading = useSignal(!props.isNew);
  const loadError = useSignal<string | null>(null);
  const article = useSignal<ArticleDto | null>(null);
  const title = useSignal('');
  const body = useSignal('');
  const format = useSignal<'markdown' | 'html' | 'plaintext'>('markdown');
  const titleTouched = useSignal(false);
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const busy = useSignal(false);
  const images = useSignal<ImageDto[]>([]);
  const sites = useSignal<SiteDto[]>([]);
  const authors = useSignal<AuthorDto[]>([]);
  const siteId = useSignal('');
  const authorIds = useSignal<string[]>([]);

  const loadImages = $(async (articleId: string) => {
    const res = await call('get', '/v1/articles/{id}/images', { path: { id: articleId }, query: { limit: '100' } });
    if (res.ok) images.value = res.data.items;
  });

  useVisibleTask$(
    async ({ track }) => {
      track(() => loc.url.href);
      const [siteList, authorList] = await Promise.all([
        loadAll((cursor) => call('get', '/v1/sites', { query: { limit: '100', ...(cursor && { cursor }) } })),
        loadAll((cursor) => call('get', '/v1/authors', { query: { limit: '100', ...(cursor && { cursor }) } })),
      ]);
      sites.value = siteList.items;
      authors.value = authorList.items;
      if (siteList.error || authorList.error)
        error.value = `Sites or authors could not be loaded: ${siteList.error ?? authorList.error}`;
      if (props.isNew) {
        loading.value = false;
        return;
      }
      const articleId = queryParam('id');
      id.value = articleId;
      if (!articleId) {
        loading.value = false;
        loadError.value = 'No article was named in the address.';
        return;
      }
      loading.value = true;
      const res = await call('get', '/v1/articles/{id}', { path: { id: articleId } });
      loading.value = false;
      if (!res.ok) {
        loadError.value = res.status === 404 ? 'This article does not exist (any more).' : res.message;
        return;
      }
      article.value = res.data.article;
      title.value = res.data.article.title;
      body.value = res.data.article.body;
      format.value = res.data.article.format;
      siteId.value = res.data.article.siteId ?? '';
      authorIds.value = res.data.article.authorIds ?? [];
      await loadImages(articleId);
    },
    { strategy: 'document-ready' },
  );

  const setStatus = $(async (action: 'publish' | 'unpublish') => {
    if (!id.value) return;
    error.value = null;
    const path = { id: id.value };
    const res =
      action === 'publish'
        ? await call('post', '/v1/articles/{id}/publish', { path })
        : await call('post', '/v1/articles/{id}/unpublish', { path });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    // 204: done, but this account may not read the article as it now stands.
    if (res.data) article.value = res.data.article;
    status.value = action === 'publish' ? 'Published: the article is online.' : 'Unpublished: the article is offline.';
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
        <h1>{props.isNew ? 'New article' : 'Edit article'}</h1>
        {a && (
          <span class={['badge', a.status === 'online' ? 'badge-ok' : '']} data-testid="article-status">
            {a.status}
          </span>
        )}
      </div>
      <form
        class="editor"
        preventdefault:submit
        noValidate
        onSubmit$={async (_, form) => {
          // The fields as they are now (typing can outrun the input handlers while the page resumes).
          title.value = (form.querySelector('#article-title') as HTMLInputElement).value;
          body.value = (form.querySelector('#article-body') as HTMLTextAreaElement).value;
          titleTouched.value = true;
          error.value = null;
          status.value = null;
          if (titleProblem(title.value)) {
            document.getElementById('article-title')?.focus();
            return;
          }
          busy.value = true;
          const site = (form.querySelector('#article-site') as HTMLSelectElement | null)?.value ?? siteId.value;
          siteId.value = site;
          const payload = {
            title: title.value,
            body: body.value,
            format: format.value,
            siteId: site || null,
            authorIds: authorIds.value,
          };
          const res = id.value
            ? await call('patch', '/v1/articles/{id}', { path: { id: id.value }, body: payload })
            : await call('post', '/v1/articles', { body: payload });
          busy.value = false;
          if (!res.ok) {
            error.value = res.issues.length ? res.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : res.message;
            return;
          }
          if (!res.data) {
            status.value = 'Saved. This account may not read the article as it now stands, so it is not shown.';
            return;
          }
          article.value = res.data.article;
          title.value = res.data.article.title;
          siteId.value = res.data.article.siteId ?? '';
          authorIds.value = res.data.article.authorIds ?? [];
          if (!id.value) {
            // A full load: Qwik City's client navigation drops the query string of a static page.
            location.assign(`/articles/edit?id=${encodeURIComponent(res.data.article.id)}`);
            return;
          }
          status.value = 'Saved.';
        }}
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
            onInput$={(_, el) => (title.value = el.value)}
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
          <select
            id="article-format"
            value={format.value}
            onChange$={(_, el) => (format.value = el.value as 'markdown')}
          >
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
          <button type="submit" class="button button-primary" disabled={busy.value}>
            {busy.value ? 'Saving…' : props.isNew && !id.value ? 'Create article' : 'Save'}
          </button>
        </div>
      </form>
      {a && id.value && (
        <div class="actions">
          {a.status === 'offline' ? (
            <ConfirmButton
              label="Publish"
              question="Put this article online?"
              confirmLabel="Yes, publish"
              onConfirm$={() => setStatus('publish')}
            />
          ) : (
            <ConfirmButton
              label="Unpublish"
              question="Take this article offline?"
              confirmLabel="Yes, unpublish"
              onConfirm$={() => setStatus('unpublish')}
            />
          )}
          <ConfirmButton
            label="Delete"
            question="Delete this article and its images for good?"
            confirmLabel="Yes, delete"
            danger
            onConfirm$={async () => {
              const res = await call('delete', '/v1/articles/{id}', { path: { id: id.value! } });
              if (!res.ok) {
                error.value = res.message;
                return;
              }
              await nav('/articles');
            }}
          />
        </div>
      )}
      <Status message={status.value} testId="editor-status" />
      {a && id.value && (
        <ImageUploader articleId={id.value} images={images} onUploaded$={() => loadImages(id.value!)} />
      )}
      {a && id.value && <SeoPanel articleId={id.value} title={a.title} images={images.value} />}
      {a && id.value && <ScheduleAndPreview article={article} />}
    </div>
  );
});
