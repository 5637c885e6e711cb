import Database from 'better-sqlite3';
import { Hono } from 'hono';
import postgres from 'postgres';
import type { FloorParts } from './lib/floor-parts.ts';
import {
  articleText,
  type FloorSql,
  listText,
  needsCount,
  POSTGRES_SQL,
  type Row,
  SQLITE_SQL,
} from './lib/floor-reads.ts';
import { floorAnswerer, serveBenchApp } from './lib/serve-child.ts';

/**
 * The least an uncached article read and list page can cost, shown beside
 * the goal rows: a bare Hono app, started like
 * the baseline, that does only what the real answer needs — one prepared
 * read of the article (or of the page's 21 rows) with its author links
 * and its tags (lib/floor-reads.ts), the app's own row → wire mapping
 * (`toArticle`, `toArticleDto`: the excerpt, the absolute links), the
 * answer's security headers and request id, a SHA-1 ETag and one JSON
 * access line per request through the app's logger, gathered per turn of
 * the event loop as the server does. No middleware, no request scope, no
 * caller, no rate limit, no validation, no service layer. What the real
 * server spends above this is its framework; what this spends above the
 * baseline is the work itself.
 *
 * FLOOR_PARTS names the app code bundled by lib/floor-parts.ts; DATABASE_URL
 * the database the uncached server reads: the seeded SQLite file (read
 * synchronously, as the app's kit does) or its copy on PostgreSQL (through
 * a postgres.js pool of the app's size, statements prepared).
 */
const partsFile = process.env.FLOOR_PARTS;
const dbUrl = process.env.DATABASE_URL ?? '';
if (!partsFile || !/^(sqlite|postgres(ql)?):/.test(dbUrl))
  throw new Error('FLOOR_PARTS and a sqlite: or postgres: DATABASE_URL are needed');
const parts = (await import(partsFile)) as FloorParts;

/** The floor's reads: plain values on SQLite, promises on PostgreSQL. */
interface FloorDb {
  byId(id: string): Row | undefined | Promise<Row | undefined>;
  page(after: string | undefined, limit: number): Row[] | Promise<Row[]>;
  count(): number | Promise<number>;
}

function sqliteDb(file: string, sql: FloorSql): FloorDb {
  const db = new Database(file, { readonly: true });
  const byId = db.prepare<[string], Row>(sql.byId);
  const list = db.prepare<[number], Row>(sql.list);
  const listAfter = db.prepare<[string, number], Row>(sql.listAfter);
  const countOnline = db.prepare<[], { n: number }>(sql.count);
  return {
    byId: (id) => byId.get(id),
    page: (after, limit) => (after === undefined ? list.all(limit) : listAfter.all(after, limit)),
    count: () => countOnline.get()!.n,
  };
}

function postgresDb(url: string, sql: FloorSql): FloorDb {
  const client = postgres(url, { max: 10, idle_timeout: 60, onnotice: () => undefined });
  const run = <T>(text: string, params: (string | number | string[])[]) =>
    client.unsafe(text, params, { prepare: true }) as unknown as Promise<T[]>;
  return {
    byId: async (id) => (await run<Row>(sql.byId, [id]))[0],
    page: (after, limit) =>
      after === undefined ? run<Row>(sql.list, [limit]) : run<Row>(sql.listAfter, [after, limit]),
    // count(*) is a bigint, which postgres.js hands over as text.
    count: async () => Number((await run<{ n: string }>(sql.count, []))[0]!.n),
  };
}

const db = dbUrl.startsWith('sqlite:')
  ? sqliteDb(dbUrl.slice('sqlite:'.length), SQLITE_SQL)
  : postgresDb(dbUrl, POSTGRES_SQL);

/** `f` of a plain value at once (SQLite stays synchronous, as in the app), of a promise when it settles. */
type Answer = Response | Promise<Response>;
const then = <T>(value: T | Promise<T>, f: (v: T) => Answer): Answer =>
  value instanceof Promise ? value.then(f) : f(value);

const answer = floorAnswerer(parts);

const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
app.get('/v1/articles/:id', (c) => {
  const started = performance.now();
  return then(db.byId(c.req.param('id')), (row) =>
    row
      ? answer(c, articleText(parts, row), '/v1/articles/{id}', started)
      : c.json({ error: { code: 'not_found' } }, 404),
  );
});
app.get('/v1/articles', (c) => {
  const started = performance.now();
  const limit = Number(c.req.query('limit') ?? 20);
  const cursor = c.req.query('cursor');
  return then(db.page(parts.decodeCursor(cursor), limit + 1), (rows) =>
    then(needsCount(rows, limit, cursor) ? db.count() : rows.length, (total) =>
      answer(c, listText(parts, rows, limit, total), '/v1/articles', started),
    ),
  );
});

serveBenchApp(app);
