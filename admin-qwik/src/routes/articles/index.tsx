import { $, component$, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import { LoadingNotice } from '../../components/status/loading-notice';
import { FormError } from '../../components/ui/form-error';
import { formatDateTime } from '../../lib/format';
import { call } from '../../lib/typed-api';

type Filter = 'all' | 'online' | 'offline';

/** Articles, newest first, filtered by status, paged by cursor ("Load more"). */
export default component$(() => {
  const filter = useSignal<Filter>('all');
  const list = useStore<{ items: ArticleDto[]; nextCursor: string | null; loading: boolean; error: string | null }>({
    items: [],
    nextCursor: null,
    loading: true,
    error: null,
  });

  const load = $(async (status: Filter, cursor: string | null) => {
    list.loading = true;
    list.error = null;
    const res = await call('get', '/v1/articles', {
      query: { limit: '20', ...(status !== 'all' && { status }), ...(cursor && { cursor }) },
    });
    if (status !== filter.value) return; // a newer filter won
    list.loading = false;
    if (!res.ok) {
      list.error = res.message;
      return;
    }
    list.items = cursor ? [...list.items, ...res.data.items] : res.data.items;
    list.nextCursor = res.data.nextCursor;
  });

  useVisibleTask$(
    ({ track }) => {
      const status = track(() => filter.value);
      list.items = [];
      void load(status, null);
    },
    { strategy: 'document-ready' },
  );

  return (
    <>
      <div class="page-head">
        <h1>Articles</h1>
        <Link href="/articles/new" class="button button-primary">
          New article
        </Link>
      </div>
      <div class="toolbar">
        <label for="status-filter">Status</label>
        <select id="status-filter" value={filter.value} onChange$={(_, el) => (filter.value = el.value as Filter)}>
          <option value="all">All</option>
          <option value="online">Online</option>
          <option value="offline">Offline</option>
        </select>
      </div>
      <FormError message={list.error} />
      <ul class="item-list" aria-label="Articles" aria-busy={list.loading} data-testid="article-list">
        {list.items.map((a) => (
          <li key={a.id} class="item">
            {/* A full load: Qwik City's client navigation drops the query string of a static page. */}
            <a href={`/articles/edit?id=${encodeURIComponent(a.id)}`} class="item-title">
              {a.title}
            </a>
            <span class={['badge', a.status === 'online' ? 'badge-ok' : '']}>{a.status}</span>
            <span class="item-meta">
              Updated <time dateTime={a.updatedAt}>{formatDateTime(a.updatedAt)}</time>
            </span>
          </li>
        ))}
      </ul>
      {list.loading && <LoadingNotice>Loading articles…</LoadingNotice>}
      {!list.loading && !list.error && list.items.length === 0 && <p class="notice">No articles here yet.</p>}
      {!list.loading && list.nextCursor && (
        <button type="button" class="button" onClick$={() => load(filter.value, list.nextCursor)}>
          Load more
        </button>
      )}
    </>
  );
});

export const head: DocumentHead = { title: 'Articles' };
