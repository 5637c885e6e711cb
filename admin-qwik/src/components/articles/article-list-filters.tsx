import { component$, type QRL, useSignal, useTask$ } from '@builder.io/qwik';
import { type ArticleListState, isFiltered, SORT_CHOICES, STATUS_LABELS } from '../../lib/article-list';
import type { AuthorDto, SiteDto } from '../../lib/catalog';

interface Props {
  state: ArticleListState;
  sites: SiteDto[];
  authors: AuthorDto[];
  onChange$: QRL<(next: Partial<ArticleListState>) => void>;
}

/** A pause in typing this long runs the search (one request per pause, not per key). */
const SEARCH_PAUSE_MS = 300;

/**
 * Search (title and body), then status, site, author and order. The search
 * runs as one types (after a short pause), and on Enter or the button; each
 * select applies at once.
 */
export const ArticleListFilters = component$((props: Props) => {
  const text = useSignal(props.state.q);
  // The address can change the search (a reload, Back, "Clear filters").
  useTask$(({ track }) => {
    text.value = track(() => props.state.q);
  });
  // As one types: the search follows a pause (text set from the address equals it already: nothing to do).
  useTask$(({ track, cleanup }) => {
    const q = track(() => text.value).trim();
    if (typeof window === 'undefined' || q === props.state.q) return;
    const timer = setTimeout(() => props.onChange$({ q }), SEARCH_PAUSE_MS);
    cleanup(() => clearTimeout(timer));
  });
  return (
    <div class="list-filters">
      {/* biome-ignore lint/a11y/useSemanticElements: Qwik's JSX types do not know <search> yet; role=search is the same landmark */}
      <form
        role="search"
        class="list-search"
        preventdefault:submit
        onSubmit$={() => props.onChange$({ q: text.value.trim() })}
      >
        <label for="article-search">Search articles</label>
        <input
          id="article-search"
          type="search"
          maxLength={48}
          value={text.value}
          onInput$={(_, el) => (text.value = el.value)}
          placeholder="Words in the title or text"
        />
        <button type="submit" class="button">
          Search
        </button>
      </form>
      <div class="list-selects">
        <span class="field-inline">
          <label for="status-filter">Status</label>
          <select
            id="status-filter"
            onChange$={(_, el) => props.onChange$({ status: el.value as ArticleListState['status'] })}
          >
            <option value="" selected={props.state.status === ''}>
              All
            </option>
            {(['online', 'offline', 'scheduled'] as const).map((s) => (
              <option key={s} value={s} selected={props.state.status === s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </span>
        <span class="field-inline">
          <label for="site-filter">Site</label>
          <select id="site-filter" onChange$={(_, el) => props.onChange$({ siteId: el.value })}>
            <option value="" selected={props.state.siteId === ''}>
              All sites
            </option>
            {props.sites.map((s) => (
              <option key={s.id} value={s.id} selected={props.state.siteId === s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </span>
        <span class="field-inline">
          <label for="author-filter">Author</label>
          <select id="author-filter" onChange$={(_, el) => props.onChange$({ authorId: el.value })}>
            <option value="" selected={props.state.authorId === ''}>
              All authors
            </option>
            {props.authors.map((a) => (
              <option key={a.id} value={a.id} selected={props.state.authorId === a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </span>
        <span class="field-inline">
          <label for="sort-order">Order</label>
          <select
            id="sort-order"
            onChange$={(_, el) => {
              const [sort, order] = el.value.split(':') as [ArticleListState['sort'], ArticleListState['order']];
              return props.onChange$({ sort, order });
            }}
          >
            {SORT_CHOICES.map((c) => (
              <option key={c.value} value={c.value} selected={`${props.state.sort}:${props.state.order}` === c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </span>
        {isFiltered(props.state) && (
          <button
            type="button"
            class="button button-quiet"
            onClick$={() => props.onChange$({ q: '', status: '', siteId: '', authorId: '' })}
          >
            Clear filters
          </button>
        )}
      </div>
    </div>
  );
});
