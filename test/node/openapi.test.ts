import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '../../worker/src/config/settings.js';
import { type App, createApp } from '../../worker/src/http/app.js';
import { OPERATIONS } from '../../worker/src/http/openapi/operations.js';
import { buildNodeDeps } from '../../worker/src/wiring/node.js';
import { createArticle, registerOwner, upload } from '../support/api-flows.js';
import { type ApiHarness, harnessFor } from '../support/api-harness.js';
import { PNG_1x1 } from '../support/images.js';
import { REPO_ROOT } from '../support/paths.js';

/** The OpenAPI description cannot drift: every served route is described, and real answers fit it. */
describe('OpenAPI description', () => {
  let dir: string;
  let app: App;
  let api: ApiHarness;
  let document: {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
    >;
    components: { schemas: Record<string, object> };
  };
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
    api = harnessFor(deps, async () => {});
    document = await (await api.request('/v1/openapi.json')).json();
  });
  afterAll(async () => {
    await closeDb?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('describes every route the app serves, and no route it does not serve', () => {
    const served = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && !r.path.endsWith('*'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const described = new Set(OPERATIONS.map((o) => `${o.method} ${o.path}`));
    expect([...served].filter((r) => !described.has(r)).sort(), 'served but not described').toEqual([]);
    expect([...described].filter((r) => !served.has(r)).sort(), 'described but not served').toEqual([]);
  });

  it('is a well-formed OpenAPI 3.1 document whose response schemas compile', () => {
    expect(document).toMatchObject({ openapi: '3.1.0', info: { title: expect.any(String) } });
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ $id: 'doc', components: document.components });
    for (const [p, methods] of Object.entries(document.paths)) {
      for (const [m, op] of Object.entries(methods)) {
        for (const [status, res] of Object.entries(op.responses)) {
          const schema = res.content?.['application/json']?.schema;
          if (schema) expect(() => ajv.compile(rewriteRefs(schema)), `${m} ${p} ${status}`).not.toThrow();
        }
      }
    }
  });

  it('matches what the API really answers', async () => {
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ $id: 'doc', components: document.components });
    const check = async (
      method: string,
      template: string,
      res: Response | Awaited<ReturnType<ApiHarness['request']>>,
    ) => {
      const schema =
        document.paths[template]?.[method]?.responses[String(res.status)]?.content?.['application/json']?.schema;
      expect(schema, `${method} ${template} ${res.status} is described`).toBeDefined();
      const validate = ajv.compile(rewriteRefs(schema!));
      const body = await res.json();
      expect(validate(body) ? [] : validate.errors, `${method} ${template} ${res.status}`).toEqual([]);
      return body;
    };
    const owner = await registerOwner(api, 'openapi@example.com');
    await check(
      'post',
      '/v1/auth/login',
      await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'openapi@example.com', password: 'a long enough password' },
      }),
    );
    await check(
      'post',
      '/v1/auth/login',
      await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'openapi@example.com', password: 'wrong' },
      }),
    );
    await check('get', '/v1/auth/me', await api.request('/v1/auth/me', { token: owner.token }));
    const a = await createArticle(api, owner.token, { body: 'x' });
    await check('get', '/v1/articles/{id}', await api.request(`/v1/articles/${a.id}`, { token: owner.token }));
    await check('get', '/v1/articles/{id}', await api.request(`/v1/articles/${a.id}`));
    await check('post', '/v1/articles/{id}/images', await upload(api, owner.token, a.id, PNG_1x1));
    await check('get', '/v1/articles', await api.request('/v1/articles?limit=5', { token: owner.token }));
    await check('get', '/v1/articles', await api.request('/v1/articles?limit=0'));
    await check(
      'post',
      '/v1/user/invite',
      await api.request('/v1/user/invite', { method: 'POST', token: owner.token, json: { email: 'new@example.com' } }),
    );
    await check('get', '/v1/user/invite', await api.request('/v1/user/invite', { token: owner.token }));
    await check('get', '/v1/user', await api.request('/v1/user', { token: owner.token }));
    await check('get', '/v1/system/version', await api.request('/v1/system/version'));
    await check('get', '/v1/system/update', await api.request('/v1/system/update', { token: owner.token }));
    await check(
      'post',
      '/v1/system/update/check',
      await api.request('/v1/system/update/check', { method: 'POST', token: owner.token }),
    );
    await check('get', '/v1/media/variants', await api.request('/v1/media/variants', { token: owner.token }));
    await check('get', '/v1/media', await api.request('/v1/media', { token: owner.token }));
  });
});

/** Component refs point into the document registered as `doc`. */
function rewriteRefs(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));
}
