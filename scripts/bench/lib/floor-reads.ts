import type { FloorParts } from './floor-parts.ts';

/**
 * The floors' reads (../floor-server.ts on better-sqlite3 and postgres.js,
 * ../workers-floor.ts on D1): the statements, written out, and the app's
 * own row → wire mapping. Plain SQL and functions of the bundled app parts,
 * so every runtime does exactly the same work.
 */

/** How a dialect writes the link columns: ordered `position:id` pairs, and a JSON array of objects. */
interface Dialect {
  pairs(position: string, id: string): string;
  jsonRows(fields: string): string;
}

/** The article's columns, its author links and its tags (with names and slugs), as the repository's `articles_by_id_with_links` reads them. */
const columns = (d: Dialect) => `id, title, body, format, status,
  site_id as "siteId", created_at as "createdAt", updated_at as "updatedAt", published_at as "publishedAt", seo,
  scheduled_at as "scheduledAt", version, slug, slug_scope as "slugScope", excerpt, feature_image_id as "featureImageId",
  (select ${d.pairs('position', 'author_id')} from article_authors where article_id = articles.id) as "authorLinks",
  (select ${d.jsonRows("'p', article_tags.position, 'id', tags.id, 'name', tags.name, 'slug', tags.slug")}
    from article_tags inner join tags on tags.id = article_tags.tag_id where article_tags.article_id = articles.id) as "tagRefs",
  (select count(*) from article_images where article_id = articles.id) as "imageLinks"`;

/** A floor's statements: SQLite's (`?`) or PostgreSQL's (`$n`). */
export interface FloorSql {
  /** The article by id, with its html. */
  byId: string;
  /** The public list, newest first (the list's `(status, id)` index), one more row than the page: is there a next one. */
  list: string;
  /** The same after a cursor's id. */
  listAfter: string;
  /** The list's `total` when its page cannot tell it (page 1 of many, or a page from a cursor). */
  count: string;
}

function floorSql(cols: string, p: (n: number) => string): FloorSql {
  return {
    byId: `select ${cols}, html from articles where id = ${p(1)}`,
    list: `select ${cols} from articles where status = 'online' order by id desc limit ${p(1)}`,
    listAfter: `select ${cols} from articles where status = 'online' and id < ${p(1)} order by id desc limit ${p(2)}`,
    count: "select count(*) as n from articles where status = 'online'",
  };
}

export const SQLITE_SQL = floorSql(
  columns({
    pairs: (position, id) => `group_concat(${position} || ':' || ${id}, ',')`,
    jsonRows: (fields) => `json_group_array(json_object(${fields}))`,
  }),
  () => '?',
);
export const POSTGRES_SQL = floorSql(
  columns({
    pairs: (position, id) => `string_agg(${position}::text || ':' || ${id}::text, ',')`,
    jsonRows: (fields) => `json_agg(json_build_object(${fields}))::text`,
  }),
  (n) => `$${n}`,
);

export type Row = Record<string, unknown>;

const LINKS = { origin: 'http://127.0.0.1', widths: [160, 320, 640, 960, 1280, 1920] };
const DATES = ['createdAt', 'updatedAt', 'publishedAt', 'scheduledAt'] as const;

export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=60';

/** The article of a row, and the tags it shows. */
function articleOf(parts: FloorParts, row: Row) {
  const { authorLinks, tagRefs, imageLinks, ...columns } = row;
  // The seeded articles have no images; a floor that met one would answer less than the app.
  if (Number(imageLinks) > 0) throw new Error(`floor: article ${String(row.id)} has images, which it does not map`);
  // SQLite keeps milliseconds, PostgreSQL a timestamptz the driver hands over as a Date.
  for (const d of DATES) columns[d] = columns[d] === null ? null : new Date(columns[d] as number | Date);
  const tags = parts.tagRefsIn(tagRefs);
  const article = parts.toArticle(
    columns,
    parts.idsInOrder(authorLinks as string | null),
    tags.map((t) => t.id),
  );
  return { article, tags };
}

type Shown = ReturnType<typeof articleOf>;
const tagMap = (shown: Shown[]) => new Map(shown.flatMap((s) => s.tags.map((t) => [t.id, t] as const)));

/** `GET /v1/articles/:id`'s body. */
export function articleText(parts: FloorParts, row: Row): string {
  const shown = articleOf(parts, row);
  return JSON.stringify({ article: parts.toArticleDto(shown.article, [], tagMap([shown]), LINKS) });
}

/** Whether the list must count its total, as the app's list does (a first page that holds every match need not). */
export const needsCount = (rows: Row[], limit: number, cursor: string | undefined) =>
  cursor !== undefined || rows.length > limit;

/** `GET /v1/articles?limit=…`'s body, from `limit + 1` rows; `total` counted or, on a first page holding all, its rows. */
export function listText(parts: FloorParts, rows: Row[], limit: number, total: number): string {
  const page = rows.slice(0, limit).map((r) => articleOf(parts, r));
  const map = tagMap(page);
  const last = page[page.length - 1]?.article;
  return JSON.stringify({
    items: page.map((s) => parts.toArticleListItem(s.article, [], map, LINKS, false)),
    nextCursor: rows.length > limit && last ? parts.encodeArticleCursor('createdAt', 'desc', last) : null,
    total,
  });
}

/** The headers of a public read's answer. */
export function answerHeaders(parts: FloorParts, requestId: string, etag: string): Record<string, string> {
  return {
    ...parts.SECURITY_RECORD,
    'Cross-Origin-Resource-Policy': 'cross-origin',
    Vary: 'Origin',
    'X-Request-Id': requestId,
    'Content-Type': 'application/json',
    ETag: etag,
    'Cache-Control': PUBLIC_CACHE_CONTROL,
  };
}

/**
 * A floor's answer to a read, apart from its body: one `request` access line
 * (a new request id, the route, the time since `started`) and the answer's
 * headers with that id and `etag`. Node's floors and the Worker's write it the same way.
 */
export function loggedAnswerHeaders(
  parts: FloorParts,
  logger: ReturnType<FloorParts['createJsonLogger']>,
  { etag, route, started }: { etag: string; route: string; started: number },
): Record<string, string> {
  const requestId = crypto.randomUUID();
  logger.info('request', {
    requestId,
    method: 'GET',
    route,
    status: 200,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  });
  return answerHeaders(parts, requestId, etag);
}
