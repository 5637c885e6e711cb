import { type Context, Hono } from 'hono';

/**
 * The Workers benchmark's baseline (scripts/bench/workers.ts): a bare Hono
 * Worker under the same `wrangler dev` as the real one. `GET
 * /v1/articles/:id` and `GET /v1/articles` answer fixed JSON documents — a
 * real article answer and a real list page that the benchmark read from the
 * real Worker and passed in as the vars ARTICLE_DOC and LIST_DOC — so that
 * both Workers serialise and send the same bytes. Nothing else: no
 * middleware, no D1, no Cache API, no logging.
 *
 * Under /cache-api the same answers come from the Cache API the way the real
 * Worker answers a hit (worker/src/adapters/cache/workers.edge-cache.ts): one
 * lookup of the data centre's generation, one of the entry stored under it,
 * its body read as text. That is the least a hit can cost where the Cache API
 * itself runs in the measured process (workerd under wrangler dev), shown
 * beside the goals for information. Under /cache-api-one, one lookup of the
 * entry and nothing else: the floor of a hit that needs no generation
 * lookup (a hit's goal: one Cache API read plus what the answer needs).
 */
interface BaselineEnv {
  ARTICLE_DOC: string;
  LIST_DOC: string;
}
type C = Context<{ Bindings: BaselineEnv }>;

let docs: { article: unknown; list: unknown } | undefined;
const docsOf = (env: BaselineEnv) => {
  docs ??= { article: JSON.parse(env.ARTICLE_DOC), list: JSON.parse(env.LIST_DOC) };
  return docs;
};

const BASE = 'http://127.0.0.1/__bench-cache';
const GENERATION = `${BASE}/generation`;
const KEEP = { 'Cache-Control': 'max-age=31536000' };

async function fromCacheApi(c: C, key: string, doc: string): Promise<Response> {
  // Workers' CacheStorage; the scripts' type check knows only the DOM's, which has no `default`.
  const cache = (caches as unknown as { default: Cache }).default;
  let generation = await (await cache.match(GENERATION))?.text();
  if (!generation) {
    generation = 'g1';
    await cache.put(GENERATION, new Response(generation, { headers: KEEP }));
  }
  const entry = `${BASE}/${generation}${key}`;
  const found = await cache.match(entry);
  if (!found) {
    await cache.put(entry, new Response(doc, { headers: { ...KEEP, 'Content-Type': 'application/json' } }));
    return new Response(doc, { headers: { 'Content-Type': 'application/json' } });
  }
  const body = await found.text();
  return c.body(body, 200, { 'Content-Type': found.headers.get('content-type') ?? 'application/json' });
}

/** One Cache API read: the entry under its URL, its body as text. */
async function fromOneLookup(c: C, key: string, doc: string): Promise<Response> {
  const cache = (caches as unknown as { default: Cache }).default;
  const entry = `${BASE}/one${key}`;
  const found = await cache.match(entry);
  if (!found) {
    await cache.put(entry, new Response(doc, { headers: { ...KEEP, 'Content-Type': 'application/json' } }));
    return new Response(doc, { headers: { 'Content-Type': 'application/json' } });
  }
  const body = await found.text();
  return c.body(body, 200, { 'Content-Type': found.headers.get('content-type') ?? 'application/json' });
}

const app = new Hono<{ Bindings: BaselineEnv }>();
app.get('/v1/articles/:id', (c) => c.json(docsOf(c.env).article));
app.get('/v1/articles', (c) => c.json(docsOf(c.env).list));
app.get('/cache-api/v1/articles/:id', (c) => fromCacheApi(c, c.req.path, c.env.ARTICLE_DOC));
app.get('/cache-api/v1/articles', (c) => fromCacheApi(c, c.req.path, c.env.LIST_DOC));
app.get('/cache-api-one/v1/articles/:id', (c) => fromOneLookup(c, c.req.path, c.env.ARTICLE_DOC));
app.get('/cache-api-one/v1/articles', (c) => fromOneLookup(c, c.req.path, c.env.LIST_DOC));

export default app;
