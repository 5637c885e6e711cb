import fc from 'fast-check';
import type { Fixtures } from './lib/fixtures.ts';
import {
  hostileNumber,
  hostilePath,
  hostileString,
  hostileValue,
  METHODS,
  oneMegabyte,
  pct,
  RAW_BODIES,
  tokenKinds,
} from './lib/hostile.ts';
import { must, type RawRequest, send } from './lib/http.ts';
import { createTally, pool, problemsOf, type TallyResult } from './lib/verdict.ts';

/**
 * Step 1: every operation of the served OpenAPI description, with hostile
 * path parameters, queries, bodies and tokens, plus random paths and
 * methods. Requests are drawn with fast-check from a fixed seed, so a run
 * can be repeated exactly (`--seed`).
 */

/** The parts of the served OpenAPI description the fuzzer reads. */
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
}
interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

/** A request as fuzz.ts sends and reports it. */
type FuzzRequest = RawRequest & { method: string; bodyPreview: string | undefined; token: string };

/** A value that mostly has the declared type (to get past the outer checks) and sometimes anything. */
function valueFor(schema: JsonSchema | undefined, ids: readonly string[]): fc.Arbitrary<unknown> {
  const typed = ((): fc.Arbitrary<unknown> => {
    if (!schema || typeof schema !== 'object') return hostileValue;
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum, 'not-an-option');
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...ids), fc.uuid(), hostileString);
    if (type === 'string') return hostileString;
    if (type === 'integer' || type === 'number') return hostileNumber;
    if (type === 'boolean') return fc.boolean();
    if (type === 'array') return fc.array(valueFor(schema.items, ids), { maxLength: 60 });
    if (type === 'object' && schema.properties) return shapedObject(schema, ids);
    return hostileValue;
  })();
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: hostileValue });
}

function shapedObject(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valueFor(s, ids)]));
  return fc.record(props, { requiredKeys: [] });
}

function jsonBody(schema: JsonSchema | undefined, ids: readonly string[]): fc.Arbitrary<string> {
  const first = Object.keys(schema?.properties ?? { title: {} })[0];
  return fc.oneof(
    { weight: 6, arbitrary: shapedObject(schema ?? {}, ids).map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: hostileValue.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: fc.constant(oneMegabyte(first ?? 'title')) },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json',
  'text/plain',
  'application/json; charset=utf-16',
  'multipart/form-data',
];

/** Which fixture ids fit a path parameter: the resource named right before it. */
function idsFor(path: string, fixtures: Fixtures): string[] {
  const pick = (...keys: (keyof Fixtures)[]) => keys.map((k) => fixtures[k]).filter(Boolean);
  if (path.startsWith('/v1/articles')) return pick('articleId', 'offlineArticleId');
  if (path.startsWith('/v1/sites')) return pick('siteId');
  if (path.startsWith('/v1/authors')) return pick('authorId');
  if (path.startsWith('/v1/user/invite')) return pick('invitationId');
  if (path.startsWith('/v1/user')) return pick('adminId');
  if (path.startsWith('/v1/media')) return pick('imageId');
  if (path.startsWith('/static/uploadedImages')) return pick('filename');
  return Object.values(fixtures);
}

function operationRequest(
  path: string,
  method: string,
  op: Operation,
  token: string,
  fixtures: Fixtures,
): fc.Arbitrary<FuzzRequest> {
  const ids = idsFor(path, fixtures);
  const allIds = Object.values(fixtures);
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const param = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(ids.length ? ids : allIds)) },
    { weight: 2, arbitrary: hostileString.map(pct) },
    { weight: 1, arbitrary: fc.uuid() },
  );
  const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
  const query = fc.array(
    fc.tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...queryParams.map((p) => p.name), 'limit', 'cursor', 'w', 'format') },
        { weight: 1, arbitrary: hostileString },
      ),
      fc.oneof(hostileString, hostileNumber.map(String), fc.constantFrom('1', '20', '100', 'online', 'webp')),
    ),
    { maxLength: 4 },
  );
  const body = op.requestBody?.content?.['application/json']
    ? jsonBody(op.requestBody.content['application/json'].schema, allIds)
    : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: jsonBody({}, allIds) });
  return fc
    .record({
      params: fc.array(param, { minLength: names.length, maxLength: names.length }),
      query,
      duplicate: fc.boolean(),
      body,
      contentType: fc.constantFrom(...CONTENT_TYPES),
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant(method.toUpperCase()) },
        { weight: 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS') },
      ),
      token: tokenKinds(token),
    })
    .map((r) => {
      let p = path;
      for (const v of r.params) p = p.replace(/\{\w+\}/, v);
      const [firstPair] = r.query;
      const pairs = r.duplicate && firstPair ? [...r.query, firstPair] : r.query;
      if (pairs.length) p += `?${pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&')}`;
      const headers: Record<string, string> = {};
      if (r.token.header) headers.authorization = r.token.header;
      if (r.body !== undefined) headers['content-type'] = r.contentType;
      return {
        method: r.method,
        path: p,
        headers,
        body: r.body,
        bodyPreview: r.body?.slice(0, 120),
        token: r.token.kind,
      };
    });
}

const randomRequest = (token: string): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom(...METHODS),
      path: hostilePath,
      token: tokenKinds(token),
      body: fc.option(fc.constantFrom(...RAW_BODIES), { nil: undefined }),
    })
    .map((r) => ({
      method: r.method,
      path: r.path,
      headers: {
        ...(r.token.header ? { authorization: r.token.header } : {}),
        ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: r.body,
      bodyPreview: r.body?.slice(0, 120),
      token: r.token.kind,
    }));

export interface FuzzOptions {
  perOperation: number;
  randomRequests: number;
  seed: number;
  deadline: number;
  log(message: string): void;
}

export interface FuzzResult extends TallyResult {
  operations: string[];
  skipped: number;
  seconds: number;
}

/** `token` is the owner's session; `fixtures` are real ids to aim at. */
export async function fuzzOperations(
  server: { url: string; jwtSecret: string; dir: string },
  token: string,
  fixtures: Fixtures,
  { perOperation, randomRequests, seed, deadline, log }: FuzzOptions,
): Promise<FuzzResult> {
  const doc = await must<OpenApiDocument>(server.url, 'GET', '/v1/openapi.json', 200);
  const tally = createTally();
  const ctx = { secrets: [server.jwtSecret], paths: [server.dir] };
  const jobs: (() => Promise<void>)[] = [];
  const operations: string[] = [];
  let k = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      operations.push(`${method.toUpperCase()} ${path}`);
      const label = `${method.toUpperCase()} ${path}`;
      const sample = fc.sample(operationRequest(path, method, op, token, fixtures), {
        numRuns: perOperation,
        seed: seed + k++,
      });
      for (const req of sample)
        jobs.push(() => send(server.url, req).then((res) => tally.record(label, req, res, problemsOf(res, req, ctx))));
    }
  }
  for (const req of fc.sample(randomRequest(token), { numRuns: randomRequests, seed: seed - 1 })) {
    jobs.push(() =>
      send(server.url, req).then((res) => tally.record('random path/method', req, res, problemsOf(res, req, ctx))),
    );
  }
  log(`fuzz: ${operations.length} operations × ${perOperation} + ${randomRequests} random requests`);
  const started = performance.now();
  const { skipped } = await pool(jobs, 4, deadline);
  return { operations, skipped, seconds: (performance.now() - started) / 1000, ...tally.result() };
}
