import { component$, type QRL, useComputed$, useSignal, useTask$ } from '@builder.io/qwik';
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

interface Choice {
  readonly value: string;
  readonly label: string;
}

const STATUS_CHOICES: readonly Choice[] = [
  { value: '', label: 'All' },
  ...(['online', 'offline', 'scheduled'] as const).map((s) => ({ value: s, label: STATUS_LABELS[s] })),
];

/**
 * One select of the filters, a component of its own so that it is drawn again only when its own
 * value or choices change. Its change handler loads on the first pick; a select drawn again in
 * the meantime (the sites or authors arriving) would put back the state's value and lose the pick
 * (the handler reads the element), so a select the others' data does not touch keeps it.
 */
const FilterSelect = component$(
  (props: {
    id: string;
    label: string;
    value: string;
    choices: readonly Choice[];
    onPick$: QRL<(value: string) => void>;
  }) => (
    <span class="field-inline">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} onChange$={(_, el) => props.onPick$(el.value)}>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value} selected={props.value === c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </span>
  ),
);

/**
 * Search (title and body), then status, site, author and order. The search
 * runs as one types (after a short pause), and on Enter or the button; each
 * select applies at once.
 */
export const ArticleListFilters = component$((props: Props) => {
  const text = useSignal(props.state.q);
  // The same arrays until the sites or authors change: a select is drawn again only when its own props do.
  const siteChoices = useComputed$(() => [
    { value: '', label: 'All sites' },
    ...props.sites.map((s) => ({ value: s.id, label: s.name })),
  ]);
  const authorChoices = useComputed$(() => [
    { value: '', label: 'All authors' },
    ...props.authors.map((a) => ({ value: a.id, label: a.name })),
  ]);
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
        <FilterSelect
          id="status-filter"
          label="Status"
          value={props.state.status}
          choices={STATUS_CHOICES}
          onPick$={(status) => props.onChange$({ status: status as ArticleListState['status'] })}
        />
        <FilterSelect
          id="site-filter"
          label="Site"
          value={props.state.siteId}
          choices={siteChoices.value}
          onPick$={(siteId) => props.onChange$({ siteId })}
        />
        <FilterSelect
          id="author-filter"
          label="Author"
          value={props.state.authorId}
          choices={authorChoices.value}
          onPick$={(authorId) => props.onChange$({ authorId })}
        />
        <FilterSelect
          id="sort-order"
          label="Order"
          value={`${props.state.sort}:${props.state.order}`}
          choices={SORT_CHOICES}
          onPick$={(choice) => {
            const [sort, order] = choice.split(':') as [ArticleListState['sort'], ArticleListState['order']];
            return props.onChange$({ sort, order });
          }}
        />
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
