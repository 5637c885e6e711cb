import type { ZodType } from 'zod';
import * as z from 'zod';
import { POLICY } from '../../features/accounts/policy.js';
import type { VersionDto } from '../../features/system/system.schema.js';
import { ALL_COMPONENTS, ref } from './components.js';
import { OPERATIONS, type Operation } from './operations.js';

/** The schema of what a client sends: the input side of each zod schema. */
const requestSchema = (schema: ZodType) => {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'No, bad or expired token',
  403: 'Not allowed for this role',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  429: 'Rate limited (Retry-After)',
  503: 'A dependency is unavailable',
};

const AUTH_TEXT = (op: Operation) =>
  op.auth === 'public'
    ? 'Public.'
    : `Needs a session: ${POLICY[op.auth] === 'session' ? 'any account' : POLICY[op.auth] === 'verified' ? 'a verified account' : 'the owner'}.`;

function parameters(op: Operation) {
  const params: object[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (op.query) {
    const json = requestSchema(op.query) as { properties?: Record<string, object>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      params.push({ name, in: 'query', required: json.required?.includes(name) ?? false, schema });
    }
  }
  return params;
}

function operationObject(op: Operation) {
  const [status, body] = op.ok;
  const responses: Record<string, object> = {
    [status]: body ? { description: 'OK', content: { 'application/json': { schema: body } } } : { description: 'OK' },
  };
  if (op.answersReadersOnly) {
    responses[204] = {
      description:
        'Done, but the caller may not read the article as it now stands (offline, and a caller without the right to offline articles: a content:write key without content:read, an unverified account), so nothing of it is shown',
    };
  }
  // Every JSON body has a size limit (MAX_JSON_BYTES, article writes MAX_ARTICLE_BYTES).
  const errors = new Set([...(op.errors ?? []), ...(op.body ? [413] : []), ...(op.rateLimited ? [429] : [])]);
  for (const code of [...errors].sort((a, b) => a - b)) {
    responses[code] = {
      description: ERROR_TEXT[code] ?? 'Error',
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  return {
    operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
    summary: op.summary,
    description: AUTH_TEXT(op),
    tags: [op.tag],
    ...(op.auth === 'public' ? {} : { security: [{ bearer: [] }] }),
    parameters: parameters(op),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: requestSchema(op.body) } } } }
      : {}),
    ...(op.multipart
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { file: { type: 'string', format: 'binary' } },
                  required: ['file'],
                },
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** OpenAPI 3.1, built once per process from OPERATIONS. */
export function buildOpenApiDocument(version: VersionDto) {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of OPERATIONS) paths[op.path] = { ...paths[op.path], [op.method]: operationObject(op) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Edge CMS API',
      version: version.version,
      description:
        'Articles, images and accounts. Errors: `{ "error": { "code", "message", "issues"? } }`. Lists: `?limit=1..100&cursor=`. ' +
        'JSON bodies: at most MAX_JSON_BYTES (default 128 KiB), article create, edit and SEO at most MAX_ARTICLE_BYTES ' +
        '(default 10 MiB); a larger body is a 413 `payload_too_large`, refused before it is read.',
    },
    servers: [{ url: '/' }],
    components: {
      schemas: ALL_COMPONENTS,
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
