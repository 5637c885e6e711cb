import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ROUTES } from '../../worker/src/app/services.js';
import { buildOpenApiDocument } from '../../worker/src/http/openapi.js';

/**
 * Checks real answers against the OpenAPI document the app serves: the
 * status must be one the operation describes, and a JSON body must fit its
 * schema (answers are described with `additionalProperties: false`, so an
 * unknown field fails too). Node only: ajv compiles validators with
 * `new Function`, which workerd refuses; the Worker serves the same app.
 */

type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
  parameters?: { name: string; in: string; schema: Json }[];
  security?: Record<string, string[]>[];
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

/** Component refs point into the document registered as `doc`. */
const rewriteRefs = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));

export interface AnswerChecker {
  /** Problems with this answer (empty when it fits the document). */
  check(method: string, url: string, status: number, contentType: string | null, body: string): string[];
  /** The operations and statuses seen so far, as `get /v1/articles/{id} 200`. */
  seen: Set<string>;
}

export function answerChecker(document: OpenApiDocument): AnswerChecker {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'doc', components: document.components });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (key: string, schema: Json) => {
    const known = compiled.get(key);
    if (known) return known;
    const v = ajv.compile(rewriteRefs(schema));
    compiled.set(key, v);
    return v;
  };
  const errorSchema = { $ref: '#/components/schemas/Error' };
  // Literal segments first: `/v1/media/variants` before `/v1/media/{id}`, as the app matches them.
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
      literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    }))
    .sort((a, b) => b.literals - a.literals);
  const seen = new Set<string>();

  return {
    seen,
    check(method, url, status, contentType, body) {
      const path = new URL(url, 'http://localhost').pathname;
      const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
      const found = templates.find((t) => t.pattern.test(path) && document.paths[t.template]![verb]);
      const isJson = /^application\/json\b/i.test(contentType ?? '');
      if (!found) {
        // No such operation: the uniform 404 (or the admin's static files).
        if (!isJson || status < 400) return [];
        const validate = validator('Error', errorSchema);
        return validate(JSON.parse(body)) ? [] : [`${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`];
      }
      const name = `${verb} ${found.template}`;
      seen.add(`${name} ${status}`);
      if (status >= 500 && status !== 503) return [];
      const answer = document.paths[found.template]![verb]!.responses[String(status)];
      if (!answer) return [`${name} answered ${status}, which the document does not describe`];
      if (!isJson || method.toUpperCase() === 'HEAD') return [];
      const schema = answer.content?.['application/json']?.schema;
      if (!schema) return [`${name} ${status} answered JSON, which the document does not describe`];
      const validate = validator(`${name} ${status}`, schema);
      return validate(JSON.parse(body)) ? [] : [`${name} ${status}: ${ajv.errorsText(validate.errors)}`];
    },
  };
}

let shared: AnswerChecker | undefined;

/** One checker per test process, over the document built from the app's own route declarations. */
export function appAnswerChecker(): AnswerChecker {
  shared ??= answerChecker(
    buildOpenApiDocument(ROUTES, {
      version: '0.0.0',
      commit: 'none',
      builtAt: 'never',
      target: 'node',
    }) as unknown as OpenApiDocument,
  );
  return shared;
}
