import type { ApiQuery } from './api-types';

/**
 * The article list's state, kept in the address (`/articles?q=…&status=…`)
 * so that a reload, a shared link and Back show the same list. Only what
 * differs from the defaults is written; anything unknown in the address
 * reads as the default instead of an error.
 */
export interface ArticleListState {
  q: string;
  /** `scheduled`: offline and waiting for a scheduled publication; `offline` (Draft): offline and not scheduled. */
  status: '' | 'online' | 'offline' | 'scheduled';
  siteId: string;
  authorId: string;
  sort: 'createdAt' | 'updatedAt' | 'publishedAt' | 'title';
  order: 'asc' | 'desc';
}

export const DEFAULT_LIST: ArticleListState = {
  q: '',
  status: '',
  siteId: '',
  authorId: '',
  sort: 'createdAt',
  order: 'desc',
};

/** The sorts offered, as editors name them; `value` is `sort:order`. */
export const SORT_CHOICES = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'updatedAt:desc', label: 'Recently edited' },
  { value: 'publishedAt:desc', label: 'Recently published' },
  { value: 'title:asc', label: 'Title A–Z' },
  { value: 'title:desc', label: 'Title Z–A' },
] as const;

/** The API keeps `online`/`offline` (and `scheduled=`); editors read Published, Draft and Scheduled. */
export const STATUS_LABELS = { online: 'Published', offline: 'Draft', scheduled: 'Scheduled' } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listStateFrom(search: string): ArticleListState {
  const p = new URLSearchParams(search);
  const id = (name: string) => {
    const v = p.get(name) ?? '';
    return UUID.test(v) ? v : '';
  };
  const status = p.get('status');
  const sortChoice = `${p.get('sort') ?? DEFAULT_LIST.sort}:${p.get('order') ?? DEFAULT_LIST.order}`;
  const known = SORT_CHOICES.some((c) => c.value === sortChoice);
  const [sort, order] = (known ? sortChoice : `${DEFAULT_LIST.sort}:${DEFAULT_LIST.order}`).split(':') as [
    ArticleListState['sort'],
    ArticleListState['order'],
  ];
  return {
    q: (p.get('q') ?? '').slice(0, 48),
    status: status === 'online' || status === 'offline' || status === 'scheduled' ? status : '',
    siteId: id('siteId'),
    authorId: id('authorId'),
    sort,
    order,
  };
}

/** `?…` with what differs from the defaults, or '' when nothing does. */
export function searchOf(state: ArticleListState): string {
  const p = new URLSearchParams();
  for (const key of Object.keys(DEFAULT_LIST) as (keyof ArticleListState)[]) {
    const value = key === 'q' ? state.q.trim() : state[key];
    if (value !== DEFAULT_LIST[key]) p.set(key, value);
  }
  const text = p.toString();
  return text ? `?${text}` : '';
}

export function listQuery(
  state: ArticleListState,
  limit: number,
  cursor: string | null,
): ApiQuery<'/v1/articles', 'get'> {
  const q = state.q.trim();
  return {
    limit,
    ...(q && { q }),
    // Draft and Scheduled part the offline articles: `scheduled=` says which.
    ...(state.status === 'online' && { status: 'online' }),
    ...(state.status === 'offline' && { status: 'offline', scheduled: 'false' }),
    ...(state.status === 'scheduled' && { scheduled: 'true' }),
    ...(state.siteId && { siteId: state.siteId }),
    ...(state.authorId && { authorId: state.authorId }),
    ...(state.sort !== DEFAULT_LIST.sort && { sort: state.sort }),
    ...(state.order !== DEFAULT_LIST.order && { order: state.order }),
    ...(cursor && { cursor }),
  };
}

export const isFiltered = (s: ArticleListState) => !!(s.q.trim() || s.status || s.siteId || s.authorId);
