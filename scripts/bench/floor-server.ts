import Database from 'better-sqlite3';
import { Hono } from 'hono';
import type { FloorParts } from './lib/floor-parts.ts';
import { serveBenchApp } from './lib/serve-child.ts';

/**
 * The least an uncached article read can cost, shown beside
 * the goal row: a bare Hono app, started like
 * the baseline, that does only what the real answer needs — one prepared
 * SQLite read of the article with its author and tag links (the real
 * statement, written out), one read of its tags, the app's own row → wire mapping
 * (`toArticle`, `toArticleDto`: the excerpt, the absolute links), the
 * answer's security headers and request id, a SHA-1 ETag and one JSON
 * access line per request through the app's logger, gathered per turn of
 * the event loop as the server does. No middleware, no request scope, no
 * caller, no rate limit, no validation, no service layer. What the real
 * server spends above this is its framework; what this spends above the
 * baseline is the work itself.
 *
 * FLOOR_PARTS names the app code bundled by lib/floor-parts.ts; the
 * database is the seeded SQLite file the uncached server reads.
 */
const partsFile = process.env.FLOOR_PARTS;
const dbUrl = process.env.DATABASE_URL ?? '';
if (!partsFile || !dbUrl.startsWith('sqlite:')) throw new Error('FLOOR_PARTS and a sqlite: DATABASE_URL are needed');
const parts = (await import(partsFile)) as FloorParts;

const db = new Database(dbUrl.slice('sqlite:'.length), { readonly: true });
// What drizzle writes for the repository's `articles_by_id_with_links`, with its column names.
const byId = db.prepare<[string], Record<string, unknown>>(`select id, title, body, format, status,
  site_id as siteId, created_at as createdAt, updated_at as updatedAt, published_at as publishedAt, seo,
  scheduled_at as scheduledAt, version, slug, slug_scope as slugScope, excerpt, html, feature_image_id as featureImageId,
  (select group_concat(position || ':' || author_id, ',') from article_authors where article_id = articles.id) as authorLinks,
  (select group_concat(position || ':' || tag_id, ',') from article_tags where article_id = articles.id) as tagLinks,
  (select count(*) from article_images where article_id = articles.id) as imageLinks
  from articles where id = ?`);
const tagsOf = db.prepare<string[], { id: string; name: string; slug: string }>(
  'select id, name, slug from tags where id in (select value from json_each(?))',
);

let pending = '';
const flush = () => {
  process.stdout.write(pending);
  pending = '';
};
const logger = parts.createJsonLogger((line) => {
  if (pending === '') setImmediate(flush);
  pending += `${line}\n`;
});
const links = { origin: 'http://127.0.0.1', widths: [160, 320, 640, 960, 1280, 1920] };
const dates = ['createdAt', 'updatedAt', 'publishedAt', 'scheduledAt'] as const;

const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
app.get('/v1/articles/:id', (c) => {
  const started = performance.now();
  const requestId = crypto.randomUUID();
  const row = byId.get(c.req.param('id'));
  if (!row) return c.json({ error: { code: 'not_found' } }, 404);
  const { authorLinks, tagLinks, imageLinks: _, ...columns } = row;
  for (const d of dates) columns[d] = columns[d] === null ? null : new Date(columns[d] as number);
  const article = parts.toArticle(
    columns,
    parts.idsInOrder(authorLinks as string | null),
    parts.idsInOrder(tagLinks as string | null),
  );
  const tags = new Map(
    article.tagIds.length === 0 ? [] : tagsOf.all(JSON.stringify(article.tagIds)).map((t) => [t.id, t] as const),
  );
  const text = JSON.stringify({ article: parts.toArticleDto(article, [], tags, links) });
  const etag = `"${parts.sha1Digest(text)}"`;
  logger.info('request', {
    requestId,
    method: 'GET',
    route: '/v1/articles/{id}',
    status: 200,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  });
  const headers = {
    ...parts.SECURITY_RECORD,
    'X-Request-Id': requestId,
    'Content-Type': 'application/json',
    ETag: etag,
    'Cache-Control': 'public, max-age=0, s-maxage=60, stale-while-revalidate=60',
  };
  return c.req.header('if-none-match') === etag ? c.body(null, 304, headers) : c.body(text, 200, headers);
});

serveBenchApp(app);
