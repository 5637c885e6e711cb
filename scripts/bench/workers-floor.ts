import { Hono } from 'hono';
import type { FloorParts } from './lib/floor-parts.ts';
import {
  articleText,
  listText,
  loggedAnswerHeaders,
  needsCount,
  type Row,
  SQLITE_SQL as SQL,
} from './lib/floor-reads.ts';

/**
 * The floor of a Workers cache miss (scripts/bench/workers.ts): a bare Hono
 * Worker on its own copy of the seeded D1 doing only a miss's own work — the
 * article read by id or the list page (the statements written out, the
 * links and tags as subqueries: one D1 query, and the
 * count of the list's `total` as the app makes it), the app's
 * own row → wire mapping (FloorParts, bundled by wrangler from worker/src
 * through the entry workers.ts writes), the answer's headers, a request id,
 * a SHA-1 ETag and one access line through the app's JSON logger. No
 * middleware, Cache API, session, caller or validation.
 *
 * Under /hit, the floor of a hit: one Cache API read of the answer (stored
 * by the first request, as a miss stores it), its stored bytes sent as
 * they are with the answer's headers, a request id and one access line —
 * what the real Worker's hit needs (worker/src/adapters/cache/workers.edge-cache.ts),
 * and nothing else.
 */

/** Workers' default cache (the scripts' type check knows only the DOM's CacheStorage, which has no `default`). */
const edgeCache = () => (caches as unknown as { default: Cache }).default;
const HIT_BASE = 'http://127.0.0.1/__floor-hit';

/** The part of D1's binding the floor uses (the scripts' type check has no Workers types). */
interface D1 {
  prepare(sql: string): { bind(...values: unknown[]): { all<T>(): Promise<{ results: T[] }> } };
}

export function floorWorker(parts: FloorParts) {
  const logger = parts.createJsonLogger((line) => console.log(line));
  const app = new Hono<{ Bindings: { DB: D1 } }>();

  /** The answer with its headers and access line: `text` with its digest, or stored bytes with their ETag. */
  const answer = (text: string | ReadableStream | null, route: string, started: number, stored?: string) => {
    const etag = stored ?? `"${parts.sha1Digest(text as string)}"`;
    return new Response(text, { status: 200, headers: loggedAnswerHeaders(parts, logger, { etag, route, started }) });
  };

  /** A hit: one lookup; the first request of a URL reads it as the floor's miss does and stores the answer. */
  const hit = async (key: string, route: string, read: () => Promise<Response>): Promise<Response> => {
    const started = performance.now();
    const found = await edgeCache().match(`${HIT_BASE}${key}`);
    const etag = found?.headers.get('etag');
    if (found && etag) return answer(found.body, route, started, etag);
    const fresh = await read();
    const text = await fresh.clone().text();
    const headers = {
      'Content-Type': 'application/json',
      ETag: fresh.headers.get('etag') ?? '',
      'Cache-Control': 'max-age=31536000',
    };
    await edgeCache().put(`${HIT_BASE}${key}`, new Response(text, { headers }));
    return fresh;
  };

  const single = async (db: D1, id: string) => {
    const started = performance.now();
    const { results } = await db.prepare(SQL.byId).bind(id).all<Row>();
    const row = results[0];
    if (!row) return Response.json({ error: { code: 'not_found' } }, { status: 404 });
    return answer(articleText(parts, row), '/v1/articles/{id}', started);
  };
  const page = async (db: D1, limit: number, cursor: string | undefined) => {
    const started = performance.now();
    const after = parts.decodeCursor(cursor);
    const statement =
      after === undefined ? db.prepare(SQL.list).bind(limit + 1) : db.prepare(SQL.listAfter).bind(after, limit + 1);
    const { results } = await statement.all<Row>();
    const total = needsCount(results, limit, cursor)
      ? (await db.prepare(SQL.count).bind().all<{ n: number }>()).results[0]!.n
      : results.length;
    return answer(listText(parts, results, limit, total), '/v1/articles', started);
  };
  const limitOf = (value: string | undefined) => Number(value ?? 20);

  app.get('/v1/articles/:id', (c) => single(c.env.DB, c.req.param('id')));
  app.get('/v1/articles', (c) => page(c.env.DB, limitOf(c.req.query('limit')), c.req.query('cursor')));
  app.get('/hit/v1/articles/:id', (c) => hit(c.req.path, '/*', () => single(c.env.DB, c.req.param('id'))));
  app.get('/hit/v1/articles', (c) =>
    hit(c.req.path + new URL(c.req.url).search, '/*', () =>
      page(c.env.DB, limitOf(c.req.query('limit')), c.req.query('cursor')),
    ),
  );
  return app;
}
