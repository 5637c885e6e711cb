import * as z from 'zod';
import { needsOf } from '../auth/policy.js';
import { ErrorSchema } from '../wire/errors.js';
import type { VersionDto } from '../wire/version.schema.js';
import { bodyOf, errorStatuses, type RawBody, type RouteDef } from './route.js';

/**
 * The OpenAPI 3.1 document, generated from the route declarations: requests
 * from the input side of the zod schemas that validate them, answers from
 * the output side of the schemas that type them. Schemas with an id
 * (`.meta({ id })`) become components and are referenced by name.
 */

type Json = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';

const strip = (json: Json): Json => {
  delete json.$schema;
  delete json.$id;
  return json;
};

/**
 * A query parameter arrives as text and is checked as text (a pattern), but
 * one declared `.meta({ type: 'integer', … })` is described as the number it
 * stands for, so a generated client sends `limit: 5`, not `'5'`.
 */
const integerQuery = ({ jsonSchema }: { jsonSchema: Json }) => {
  if (jsonSchema.type === 'integer') delete jsonSchema.pattern;
};

/** The schema of what a client sends: the input side of each zod schema. */
const requestSchema = (schema: z.ZodType): Json =>
  strip(
    z.toJSONSchema(schema, {
      io: 'input',
      target: 'draft-2020-12',
      unrepresentable: 'any',
      override: integerQuery,
    }) as Json,
  );

/**
 * Every schema with an id, as a component: the output side (what the server sends). In name
 * order: the registry holds them in the order their modules were first imported, which differs
 * between a server's start and a process that imported some of them before.
 */
function components(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'output',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT}${id}`,
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, json]) => [id, strip(json)]),
  );
}

/** An answer's schema: a reference when the schema is a component, else inline with references to components. */
function answerSchema(schema: z.ZodType, known: Record<string, Json>): Json {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `${COMPONENT}${id}` };
  const json = strip(z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' }) as Json);
  for (const name of Object.keys((json.$defs as Json | undefined) ?? {})) {
    if (!known[name]) throw new Error(`${name} is reused inside an answer but is not a component: give it an id`);
  }
  delete json.$defs;
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${COMPONENT}`)) as Json;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'No, bad or expired token',
  403: 'Not allowed for this role',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed: the resource is not at a version If-Match names',
  413: 'Too large',
  422: 'The Idempotency-Key was used with another request',
  429: 'Rate limited (Retry-After)',
  503: 'A dependency is unavailable',
};

const SUCCESS_TEXT: Record<number, string> = { 304: 'Not modified' };

const isRaw = (spec: unknown): spec is RawBody => typeof spec === 'object' && spec !== null && 'mediaTypes' in spec;

function authText(r: RouteDef): string {
  if (r.allow === 'public') return 'Public.';
  const needs = needsOf(r.allow);
  return `Needs a session: ${needs === 'session' ? 'any account' : needs === 'verified' ? 'a verified account' : 'the owner'}.`;
}

function parameters(r: RouteDef) {
  const params: Json[] = Object.entries(r.params ?? {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: requestSchema(schema),
  }));
  if (r.query) {
    const json = requestSchema(r.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      params.push({ name, in: 'query', required: json.required?.includes(name) ?? false, schema });
    }
  }
  if (r.idempotent) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'A key of the client’s choosing (1 to 255 printable ASCII characters, a UUID is usual), kept 24 hours per ' +
        'caller: the same key with the same body answers what the first request answered, without creating again; ' +
        'with another body, 422; while the first request runs, 409.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (r.etag === 'write') {
    params.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'Write only while the resource is at one of these versions (`*`, or a list of ETags from a read or a write ' +
        'answer); otherwise 412 and nothing is written. Without it the write is unconditional.',
      schema: { type: 'string' },
    });
  }
  return params;
}

const ETAG_HEADER = {
  ETag: { description: 'The version of the resource this answer shows (for If-Match)', schema: { type: 'string' } },
};

function requestBody(r: RouteDef) {
  if (r.body) return { required: true, content: { 'application/json': { schema: requestSchema(r.body) } } };
  if (r.stream) {
    const schema = r.stream.binary ? { type: 'string', format: 'binary' } : { type: 'string' };
    return { required: true, content: Object.fromEntries(r.stream.mediaTypes.map((type) => [type, { schema }])) };
  }
  if (!r.upload) return undefined;
  const file = {
    type: 'object',
    properties: { [r.upload]: { type: 'string', format: 'binary' } },
    required: [r.upload],
  };
  return { required: true, content: { 'multipart/form-data': { schema: file } } };
}

function responses(r: RouteDef, known: Record<string, Json>) {
  const out: Record<string, Json> = {};
  for (const [status, answer] of Object.entries(r.responses)) {
    const spec = bodyOf(answer);
    const description =
      answer !== spec && answer !== null
        ? (answer as { description: string }).description
        : (SUCCESS_TEXT[Number(status)] ?? (Number(status) < 400 ? 'OK' : (ERROR_TEXT[Number(status)] ?? 'Error')));
    if (spec === null) out[status] = { description };
    else if (isRaw(spec)) {
      const schema = spec.binary ? { type: 'string', format: 'binary' } : { type: 'string' };
      out[status] = { description, content: Object.fromEntries(spec.mediaTypes.map((type) => [type, { schema }])) };
    } else out[status] = { description, content: { 'application/json': { schema: answerSchema(spec, known) } } };
    if (r.etag && Number(status) < 300) out[status] = { ...out[status], headers: ETAG_HEADER };
  }
  // A cached read answers a matching If-None-Match with 304 (http/middleware/public-read.ts).
  if (r.cache && !('304' in out)) out['304'] = { description: 'Not modified: If-None-Match matched the ETag' };
  const error = answerSchema(ErrorSchema, known);
  for (const status of errorStatuses(r)) {
    out[status] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: error } } };
  }
  return out;
}

const operationId = (r: RouteDef) =>
  `${r.method}${r.path
    .replace(/\{(\w+)\}/g, 'By-$1')
    .replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`;

/** OpenAPI 3.1, from the declarations of every route the app serves. */
export function buildOpenApiDocument(routes: readonly RouteDef[], version: VersionDto) {
  const schemas = components();
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) {
    const body = requestBody(r);
    paths[r.path] ??= {};
    paths[r.path]![r.method] = {
      operationId: operationId(r),
      summary: r.summary,
      description: authText(r),
      tags: [r.tag],
      // Public operations need no credentials (a token, when sent, may still show more, as docs/api.md says).
      security: r.allow === 'public' ? [] : [{ bearer: [] }],
      parameters: parameters(r),
      ...(body && { requestBody: body }),
      responses: responses(r, schemas),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Edge CMS API',
      version: version.version,
      description:
        'Articles, images and accounts. Errors: `{ "error": { "code", "message", "issues"? } }`. Lists: `?limit=1..100&cursor=`. ' +
        'JSON bodies: at most MAX_JSON_BYTES (default 128 KiB), article create, edit and SEO at most MAX_ARTICLE_BYTES ' +
        '(default 10 MiB); a larger body is a 413 `payload_too_large`, refused before it is read. An article body is ' +
        'rendered to HTML on the write, up to MAX_MARKDOWN_BYTES (Markdown, default 128 KiB) or MAX_RENDER_BYTES ' +
        '(other formats, default 512 KiB): a longer one is a 413 naming the limit.',
    },
    servers: [{ url: '/' }],
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A session JWT (login, registration, invitation) or an API key (`cms_…`).',
        },
      },
    },
    paths,
  };
}
