import { Hono } from 'hono';
import type { FloorParts } from './lib/floor-parts.ts';
import { answerHeaders, articleText, listText, needsCount, type Row, SQLITE_SQL as SQL } from './lib/floor-reads.ts';

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
 */

/** The part of D1's binding the floor uses (the scripts' type check has no Workers types). */
interface D1 {
  prepare(sql: string): { bind(...values: unknown[]): { all<T>(): Promise<{ results: T[] }> } };
}

export function floorWorker(parts: FloorParts) {
  const logger = parts.createJsonLogger((line) => console.log(line));
  const app = new Hono<{ Bindings: { DB: D1 } }>();

  const answer = (text: string, route: string, started: number) => {
    const requestId = crypto.randomUUID();
    const etag = `"${parts.sha1Digest(text)}"`;
    logger.info('request', {
      requestId,
      method: 'GET',
      route,
      status: 200,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
    return new Response(text, { status: 200, headers: answerHeaders(parts, requestId, etag) });
  };

  app.get('/v1/articles/:id', async (c) => {
    const started = performance.now();
    const { results } = await c.env.DB.prepare(SQL.byId).bind(c.req.param('id')).all<Row>();
    const row = results[0];
    if (!row) return c.json({ error: { code: 'not_found' } }, 404);
    return answer(articleText(parts, row), '/v1/articles/{id}', started);
  });
  app.get('/v1/articles', async (c) => {
    const started = performance.now();
    const limit = Number(c.req.query('limit') ?? 20);
    const cursor = c.req.query('cursor');
    const after = parts.decodeCursor(cursor);
    const statement =
      after === undefined
        ? c.env.DB.prepare(SQL.list).bind(limit + 1)
        : c.env.DB.prepare(SQL.listAfter).bind(after, limit + 1);
    const { results } = await statement.all<Row>();
    const total = needsCount(results, limit, cursor)
      ? (await c.env.DB.prepare(SQL.count).bind().all<{ n: number }>()).results[0]!.n
      : results.length;
    return answer(listText(parts, results, limit, total), '/v1/articles', started);
  });
  return app;
}
