import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../worker/src/app/app.js';
import { ROUTES } from '../../worker/src/app/services.js';
import { parseSettings } from '../../worker/src/config/settings.js';
import { buildNodeDeps } from '../../worker/src/wiring/node.js';
import { createArticle, registerOwner, upload } from '../support/api-flows.js';
import { type ApiHarness, harnessFor } from '../support/api-harness.js';
import { PNG_1x1 } from '../support/images.js';
import { answerChecker, type OpenApiDocument } from '../support/openapi-answers.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The OpenAPI description is generated from the route declarations, so it
 * cannot miss a route; what is checked here is that it says true things:
 * it is well formed, the app serves exactly the declared routes, and real
 * answers fit it. Every API suite on Node checks every answer it gets the
 * same way (test/support/openapi-answers.ts, through the harness).
 */
describe('OpenAPI description', () => {
  let dir: string;
  let app: App;
  let api: ApiHarness;
  let document: OpenApiDocument & { openapi: string; info: { title: string } };
  let closeDb: () => Promise<void>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cms-openapi-'));
    const settings = parseSettings(
      {
        DATABASE_URL: `sqlite:${dir}/cms.db`,
        STORAGE_URL: `file:${dir}/uploads`,
        ACTIVITY_LOG_FILE: `${dir}/activity.ndjson`,
        JWT_SECRET: 'x'.repeat(40),
      },
      'node',
    );
    const { deps, close } = await buildNodeDeps(settings, {
      appRoot: REPO_ROOT,
      jwtSecret: 'x'.repeat(40),
      writeLog: () => {},
    });
    closeDb = close;
    app = createApp(deps);
    const served = await (await harnessFor(deps, async () => {}).request('/v1/openapi.json')).json();
    document = served;
    api = harnessFor(deps, async () => {}, { answers: answerChecker(served) });
  });
  afterAll(async () => {
    await closeDb?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves every declared route, and only those (besides the catch-alls)', () => {
    const served = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && !r.path.endsWith('*'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const declared = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    const described = new Set(
      Object.entries(document.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m} ${p}`)),
    );
    expect([...served].filter((r) => !declared.has(r)).sort(), 'served but not declared').toEqual([]);
    expect([...declared].filter((r) => !served.has(r)).sort(), 'declared but not served').toEqual([]);
    expect([...described].sort()).toEqual([...declared].sort());
  });

  it('is a well-formed OpenAPI 3.1 document whose schemas compile', () => {
    expect(document).toMatchObject({ openapi: '3.1.0', info: { title: expect.any(String) } });
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ $id: 'doc', components: document.components });
    for (const [p, methods] of Object.entries(document.paths)) {
      for (const [m, op] of Object.entries(methods)) {
        for (const [status, res] of Object.entries(op.responses)) {
          const schema = res.content?.['application/json']?.schema;
          if (schema) {
            const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));
            expect(() => ajv.compile(rewritten), `${m} ${p} ${status}`).not.toThrow();
          }
        }
      }
    }
  });

  it("passes Redocly's recommended rules with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`)).toEqual([]);
  });

  it('types integer query parameters as integers, and marks public operations as needing no credentials', () => {
    const limit = document.paths['/v1/articles']!.get!.parameters!.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    for (const r of ROUTES) {
      const op = document.paths[r.path]![r.method]!;
      expect(op.security, `${r.method} ${r.path}`).toEqual(r.allow === 'public' ? [] : [{ bearer: [] }]);
    }
  });

  it('describes answers strictly: objects list their fields and allow no others', () => {
    const loose: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${where}[${i}]`);
      }
      if (typeof node !== 'object' || node === null) return;
      const o = node as Record<string, unknown>;
      if (o.type === 'object' && o.properties && o.additionalProperties !== false) loose.push(where);
      for (const [k, v] of Object.entries(o)) walk(v, `${where}.${k}`);
    };
    walk(document.components.schemas, 'components');
    for (const [p, methods] of Object.entries(document.paths)) {
      for (const [m, op] of Object.entries(methods)) walk(op.responses, `${m} ${p}`);
    }
    expect(loose).toEqual([]);
  });

  it('the answer checker refuses an unknown field, a missing field and an undescribed status', () => {
    const checker = answerChecker(document);
    const version = { version: '1', commit: 'c', builtAt: 'b', target: 'node' };
    expect(checker.check('GET', '/v1/system/version', 200, 'application/json', JSON.stringify(version))).toEqual([]);
    expect(
      checker.check('GET', '/v1/system/version', 200, 'application/json', JSON.stringify({ ...version, extra: 1 })),
    ).not.toEqual([]);
    expect(
      checker.check('GET', '/v1/system/version', 200, 'application/json', JSON.stringify({ version: '1' })),
    ).not.toEqual([]);
    expect(checker.check('GET', '/v1/system/version', 418, 'application/json', '{}')).not.toEqual([]);
  });

  it('matches what the API really answers', async () => {
    const owner = await registerOwner(api, 'openapi@example.com');
    const login = (password: string) =>
      api.request('/v1/auth/login', { method: 'POST', json: { email: 'openapi@example.com', password } });
    expect((await login('a long enough password')).status).toBe(200);
    expect((await login('wrong')).status).toBe(401);
    expect((await api.request('/v1/auth/me', { token: owner.token })).status).toBe(200);
    const a = await createArticle(api, owner.token, { body: 'x' });
    expect((await api.request(`/v1/articles/${a.id}`, { token: owner.token })).status).toBe(200);
    expect((await api.request(`/v1/articles/${a.id}`)).status).toBe(404);
    expect((await upload(api, owner.token, a.id, PNG_1x1)).status).toBe(201);
    expect((await api.request('/v1/articles?limit=5', { token: owner.token })).status).toBe(200);
    expect((await api.request('/v1/articles?limit=0')).status).toBe(400);
    const invite = { method: 'POST', token: owner.token, json: { email: 'new@example.com' } };
    expect((await api.request('/v1/user/invite', invite)).status).toBe(201);
    expect((await api.request('/v1/user/invite', { token: owner.token })).status).toBe(200);
    expect((await api.request('/v1/user', { token: owner.token })).status).toBe(200);
    expect((await api.request('/v1/system/version')).status).toBe(200);
    expect((await api.request('/v1/system/update', { token: owner.token })).status).toBe(200);
    const check = await api.request('/v1/system/update/check', { method: 'POST', token: owner.token });
    // No release feed is configured: a 409 saying so, described like every error.
    expect(check.status).toBe(409);
    expect((await api.request('/v1/media/variants', { token: owner.token })).status).toBe(200);
    expect((await api.request('/v1/media', { token: owner.token })).status).toBe(200);
    expect((await api.request('/readyz')).status).toBe(200);
  });
});
