import { $, component$, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import type { ArticleListItemDto } from '../../../../worker/src/features/articles/article.schema';
import { ArticleListFilters } from '../../components/articles/article-list-filters';
import { BulkActions } from '../../components/articles/bulk-actions';
import { LoadingNotice } from '../../components/status/loading-notice';
import { FormError, Status } from '../../components/ui/form-error';
import {
  type ArticleListState,
  DEFAULT_LIST,
  isFiltered,
  listQuery,
  listStateFrom,
  STATUS_LABELS,
  searchOf,
} from '../../lib/article-list';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { formatDateTime } from '../../lib/format';
import { loadAll } from '../../lib/load-all';
import { call } from '../../lib/typed-api';

const PAGE = 20;

/** What Back needs to show the list as it was left: how many rows were shown and where it was scrolled. */
interface Place {
  shown: number;
  scrollY: number;
}
const PLACE_KEY = 'articleList';
const placeOf = (state: unknown): Place | null => {
  const place = (state as Record<string, unknown> | null)?.[PLACE_KEY] as Place | undefined;
  return place && Number.isInteger(place.shown) && Number.isFinite(place.scrollY) ? place : null;
};

/** Keeps the list's place in this history entry (alongside Qwik City's own state). */
function rememberPlace(shown: number): void {
  const place: Place = { shown, scrollY: Math.round(window.scrollY) };
  history.replaceState({ ...(history.state ?? {}), [PLACE_KEY]: place }, '');
}

/** Scrolls to `y` once the rows are rendered and the page is tall enough (a few frames after the data). */
function restoreScroll(y: number, frames: number): void {
  window.scrollTo(0, y);
  if (Math.abs(window.scrollY - y) > 1 && frames > 0) requestAnimationFrame(() => restoreScroll(y, frames - 1));
}

/**
 * Articles: search, filters and order kept in the address, paged by cursor
 * ("Load more"), selection for bulk publish, unpublish and delete. This
 * history entry keeps how many rows are shown and the scroll position, so
 * Back from an article returns to the same place.
 */
export default component$(() => {
  const state = useStore<ArticleListState>({ ...DEFAULT_LIST });
  const sites = useSignal<SiteDto[]>([]);
  const authors = useSignal<AuthorDto[]>([]);
  const selected = useSignal<string[]>([]);
  const outcome = useSignal<string | null>(null);
  const outcomeFailed = useSignal(false);
  const request = useSignal(0);
  const list = useStore<{
    items: ArticleListItemDto[];
    nextCursor: string | null;
    loading: boolean;
    error: string | null;
  }>({
    items: [],
    nextCursor: null,
    loading: true,
    error: null,
  });

  const load = $(async (cursor: string | null, limit = PAGE) => {
    const mine = ++request.value;
    list.loading = true;
    list.error = null;
    const res = await call('get', '/v1/articles', { query: listQuery(state, Math.min(limit, 100), cursor) });
    if (mine !== request.value) return; // a newer search or filter won
    list.loading = false;
    if (!res.ok) {
      list.error = res.message;
      return;
    }
    // Whole items: only a `fields=` list trims them, and the admin never sends one.
    const items = res.data.items as ArticleListItemDto[];
    list.items = cursor ? [...list.items, ...items] : items;
    list.nextCursor = res.data.nextCursor;
    rememberPlace(list.items.length);
  });

  const change = $(async (next: Partial<ArticleListState>) => {
    Object.assign(state, next);
    selected.value = [];
    // The entry keeps Qwik City's own state; only the address changes, and the place starts over.
    const { [PLACE_KEY]: _, ...kept } = (history.state ?? {}) as Record<string, unknown>;
    history.replaceState(kept, '', `${location.pathname}${searchOf(state)}`);
    await load(null);
  });

  useVisibleTask$(
    async ({ cleanup }) => {
      // Plain listeners, not Qwik handlers: those load on demand and may come too late on the way out.
      const save = () => rememberPlace(list.items.length);
      const onClick = (e: MouseEvent) => {
        if (e.target instanceof Element && e.target.closest('a[href]')) save();
      };
      document.addEventListener('click', onClick, true);
      window.addEventListener('pagehide', save);
      cleanup(() => {
        document.removeEventListener('click', onClick, true);
        window.removeEventListener('pagehide', save);
      });
      Object.assign(state, listStateFrom(location.search));
      const place = placeOf(history.state);
      void Promise.all([
        loadAll((cursor) => call('get', '/v1/sites', { query: { limit: 100, ...(cursor && { cursor }) } })),
        loadAll((cursor) => call('get', '/v1/authors', { query: { limit: 100, ...(cursor && { cursor }) } })),
      ]).then(([s, a]) => {
        sites.value = s.items;
        authors.value = a.items;
      });
      // The browser's own restoration runs before the rows exist; this page restores its place itself.
      history.scrollRestoration = 'manual';
      await load(null, Math.max(PAGE, place?.shown ?? 0));
      if (place) restoreScroll(place.scrollY, 60);
    },
    { strategy: 'document-ready' },
  );

  const siteName = (id: string | null) => (id ? sites.value.find((s) => s.id === id)?.name : undefined);
  const shownIds = list.items.map((a) => a.id);
  const allSelected = shownIds.length > 0 && shownIds.every((id) => selected.value.includes(id));

  return (
    <>
      <div class="page-head">
        <h1>Articles</h1>
        <Link href="/articles/new" class="button button-primary">
          New article
        </Link>
      </div>
      <ArticleListFilters state={state} sites={sites.value} authors={authors.value} onChange$={change} />
      <div class="list-select-all">
        <input
          type="checkbox"
          id="select-all"
          checked={allSelected}
          disabled={shownIds.length === 0}
          onChange$={(_, el) => (selected.value = el.checked ? shownIds : [])}
        />
        <label for="select-all">Select all shown</label>
      </div>
      {selected.value.length > 0 && (
        <BulkActions
          selected={list.items.filter((a) => selected.value.includes(a.id)).map((a) => ({ id: a.id, title: a.title }))}
          onDone$={async (message, failed) => {
            outcome.value = message;
            outcomeFailed.value = failed;
            selected.value = [];
            await load(null, Math.max(PAGE, list.items.length));
          }}
        />
      )}
      {outcomeFailed.value ? (
        <FormError message={outcome.value} />
      ) : (
        <Status message={outcome.value} testId="bulk-outcome" />
      )}
      <FormError message={list.error} />
      <ul class="item-list" aria-label="Articles" aria-busy={list.loading} data-testid="article-list">
        {list.items.map((a) => (
          <li key={a.id} class="item item-article">
            <input
              type="checkbox"
              id={`select-${a.id}`}
              aria-label={`Select “${a.title}”`}
              checked={selected.value.includes(a.id)}
              onChange$={(_, el) =>
                (selected.value = el.checked ? [...selected.value, a.id] : selected.value.filter((id) => id !== a.id))
              }
            />
            {/* A full load: Qwik City's client navigation drops the query string of a static page. */}
            <a href={`/articles/edit?id=${encodeURIComponent(a.id)}`} class="item-title">
              {a.title}
            </a>
            <span class={['badge', a.status === 'online' ? 'badge-ok' : '']} data-testid="article-state">
              {a.scheduledAt ? 'Scheduled' : STATUS_LABELS[a.status]}
            </span>
            <span class="item-meta">
              {siteName(a.siteId) && <>{siteName(a.siteId)} · </>}
              Updated <time dateTime={a.updatedAt}>{formatDateTime(a.updatedAt)}</time>
            </span>
          </li>
        ))}
      </ul>
      {list.loading && <LoadingNotice>Loading articles…</LoadingNotice>}
      {!list.loading && !list.error && list.items.length === 0 && (
        <p class="notice">{isFiltered(state) ? 'No articles match these filters.' : 'No articles here yet.'}</p>
      )}
      {!list.loading && list.nextCursor && (
        <button type="button" class="button" onClick$={() => load(list.nextCursor)}>
          Load more
        </button>
      )}
    </>
  );
});

export const head: DocumentHead = { title: 'Articles' };
