import Database from 'better-sqlite3';
import { type Context, Hono } from 'hono';
import type { FloorParts } from './lib/floor-parts.ts';
import {
  answerHeaders,
  articleText,
  BY_ID_SQL,
  COUNT_SQL,
  LIST_AFTER_SQL,
  LIST_SQL,
  listText,
  needsCount,
  type Row,
  TAGS_SQL,
  type TagRow,
  tagIdsOf,
} from './lib/floor-reads.ts';
import { serveBenchApp } from './lib/serve-child.ts';

/**
 * The least an uncached article read and list page can cost, shown beside
 * the goal rows: a bare Hono app, started like
 * the baseline, that does only what the real answer needs — one prepared
 * SQLite read of the article (or of the page's 21 rows) with its author and
 * tag links (lib/floor-reads.ts), one read of their tags when they show any, the app's own row → wire mapping
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
const byId = db.prepare<[string], Row>(BY_ID_SQL);
const list = db.prepare<[number], Row>(LIST_SQL);
const listAfter = db.prepare<[string, number], Row>(LIST_AFTER_SQL);
const tagsIn = db.prepare<[string], TagRow>(TAGS_SQL);
const countOnline = db.prepare<[], { n: number }>(COUNT_SQL);
const tagsOf = (rows: Row[]) => {
  const ids = tagIdsOf(parts, rows);
  return ids === null ? [] : tagsIn.all(ids);
};

let pending = '';
const flush = () => {
  process.stdout.write(pending);
  pending = '';
};
const logger = parts.createJsonLogger((line) => {
  if (pending === '') setImmediate(flush);
  pending += `${line}\n`;
});

/** The answer with its headers, ETag and access line; a 304 for a matching If-None-Match. */
function answer(c: Context, text: string, route: string, started: number) {
  const requestId = crypto.randomUUID();
  const etag = `"${parts.sha1Digest(text)}"`;
  logger.info('request', {
    requestId,
    method: 'GET',
    route,
    status: 200,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  });
  const headers = answerHeaders(parts, requestId, etag);
  return c.req.header('if-none-match') === etag ? c.body(null, 304, headers) : c.body(text, 200, headers);
}

const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
app.get('/v1/articles/:id', (c) => {
  const started = performance.now();
  const row = byId.get(c.req.param('id'));
  if (!row) return c.json({ error: { code: 'not_found' } }, 404);
  return answer(c, articleText(parts, row, tagsOf([row])), '/v1/articles/{id}', started);
});
app.get('/v1/articles', (c) => {
  const started = performance.now();
  const limit = Number(c.req.query('limit') ?? 20);
  const cursor = c.req.query('cursor');
  const after = parts.decodeCursor(cursor);
  const rows = after === undefined ? list.all(limit + 1) : listAfter.all(after, limit + 1);
  const total = needsCount(rows, limit, cursor) ? countOnline.get()!.n : rows.length;
  return answer(c, listText(parts, rows, limit, tagsOf(rows), total), '/v1/articles', started);
});

serveBenchApp(app);
