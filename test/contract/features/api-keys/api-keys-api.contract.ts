import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, inviteAdmin, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';

const SECRET = /^cms_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

/** Integration keys per docs/api.md#api-keys: owner-only management, scopes enforced, revocation at once. */
export function runApiKeysApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`API keys (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let admin: string;
    const createKey = async (json: Record<string, unknown>) => {
      const res = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'Builder', ...json },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as {
        apiKey: { id: string; prefix: string; scopes: string[]; lastUsedAt: string | null };
        secret: string;
      };
    };

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'keys-owner@example.com')).token;
      admin = (await inviteAdmin(api, owner, 'keys-admin@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('shows the secret once, stores and lists only what identifies the key', async () => {
      const res = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'Static builder', scopes: ['content:read'], evil: 1 },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { apiKey, secret } = await res.json();
      expect(secret).toMatch(SECRET);
      expect(secret.startsWith(`${apiKey.prefix}_`)).toBe(true);
      expect(Object.keys(apiKey).sort()).toEqual([
        'createdAt',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'prefix',
        'scopes',
      ]);
      expect(apiKey).toMatchObject({
        name: 'Static builder',
        scopes: ['content:read'],
        lastUsedAt: null,
        expiresAt: null,
      });
      const listed = await (await api.request('/v1/api-keys', { token: owner })).json();
      expect(listed.items).toContainEqual(apiKey);
      expect(JSON.stringify(listed)).not.toContain(secret.slice(13));
    });

    it('is the owner’s alone to manage, and a key never manages keys', async () => {
      const { secret } = await createKey({ scopes: ['content:read', 'content:write', 'media:write'] });
      expect((await api.request('/v1/api-keys')).status).toBe(401);
      for (const token of [admin, secret]) {
        expect((await api.request('/v1/api-keys', { token })).status).toBe(403);
        const res = await api.request('/v1/api-keys', {
          method: 'POST',
          token,
          json: { name: 'x', scopes: ['content:read'] },
        });
        expect(res.status).toBe(403);
        expect((await errorOf(res)).code).toBe('forbidden');
      }
    });

    it('enforces scopes: content:read reads offline articles only, content:write writes, media:write uploads', async () => {
      const offline = await createArticle(api, owner, { title: 'Draft' });
      const reader = (await createKey({ scopes: ['content:read'] })).secret;
      const writer = (await createKey({ scopes: ['content:write'] })).secret;
      const media = (await createKey({ scopes: ['media:write'] })).secret;

      expect((await api.request(`/v1/articles/${offline.id}`, { token: reader })).status).toBe(200);
      expect((await api.request(`/v1/articles/${offline.id}`, { token: writer })).status).toBe(404);
      expect((await api.request('/v1/articles', { method: 'POST', token: reader, json: { title: 'x' } })).status).toBe(
        403,
      );

      const created = await api.request('/v1/articles', { method: 'POST', token: writer, json: { title: 'By a key' } });
      expect(created.status).toBe(201);
      const articleId = (await created.json()).article.id;
      expect((await api.request(`/v1/articles/${articleId}/publish`, { method: 'POST', token: writer })).status).toBe(
        200,
      );
      expect((await upload(api, writer, articleId, PNG_1x1, 'a.png', 'image/png')).status).toBe(403);
      expect((await upload(api, media, articleId, PNG_1x1, 'a.png', 'image/png')).status).toBe(201);

      // No scope reaches accounts, users, the activity log, purge or updates.
      const all = (await createKey({ scopes: ['content:read', 'content:write', 'media:write'] })).secret;
      for (const [method, path] of [
        ['GET', '/v1/auth/me'],
        ['GET', '/v1/user'],
        ['GET', '/v1/user/invite'],
        ['GET', '/v1/activity'],
        ['POST', '/v1/media/purge'],
        ['PUT', '/v1/media/purge/settings'],
        ['POST', '/v1/system/update/check'],
        ['POST', '/v1/system/update/apply'],
        ['POST', '/v1/system/update/rollback'],
      ] as const) {
        const res = await api.request(path, { method, token: all, json: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    });

    it('records the last use and logs creation and use', async () => {
      const { apiKey, secret } = await createKey({ name: 'Tracked', scopes: ['content:write'] });
      api.clock.advance(5000);
      const before = api.clock.now().getTime();
      expect(
        (await api.request('/v1/articles', { method: 'POST', token: secret, json: { title: 'Logged' } })).status,
      ).toBe(201);
      const listed = (await (await api.request('/v1/api-keys?limit=100', { token: owner })).json()).items;
      const lastUsed = Date.parse(listed.find((k: { id: string }) => k.id === apiKey.id).lastUsedAt);
      expect(lastUsed).toBeGreaterThanOrEqual(before);
      expect(lastUsed).toBeLessThanOrEqual(api.clock.now().getTime());
      const log = (await (await api.request('/v1/activity?limit=5', { token: owner })).json()).items;
      expect(log[0]).toMatchObject({ action: 'article.create', actorType: 'apiKey', actorId: apiKey.id });
      expect(log[1]).toMatchObject({
        action: 'apiKey.use',
        actorType: 'apiKey',
        actorId: apiKey.id,
        subjectId: apiKey.id,
      });
      const created = (await (await api.request('/v1/activity?action=apiKey.create&limit=1', { token: owner })).json())
        .items[0];
      expect(created).toMatchObject({
        actorType: 'user',
        subjectId: apiKey.id,
        details: { name: 'Tracked', scopes: ['content:write'] },
      });
    });

    it('refuses a revoked key at once, an expired key, and anything that only looks like a key', async () => {
      const { apiKey, secret } = await createKey({ scopes: ['content:read'] });
      expect((await api.request('/v1/articles', { token: secret })).status).toBe(200);
      expect((await api.request(`/v1/api-keys/${apiKey.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      const refused = await api.request('/v1/articles', { token: secret });
      expect(refused.status).toBe(401);
      expect((await errorOf(refused)).code).toBe('unauthorized');
      expect((await api.request(`/v1/api-keys/${apiKey.id}`, { method: 'DELETE', token: owner })).status).toBe(404);

      const expiresAt = new Date(api.clock.now().getTime() + 60_000).toISOString();
      const expiring = await createKey({ scopes: ['content:read'], expiresAt });
      expect(expiring.apiKey).toMatchObject({ expiresAt });
      expect((await api.request('/v1/articles', { token: expiring.secret })).status).toBe(200);
      api.clock.advance(60_000);
      expect((await api.request('/v1/articles', { token: expiring.secret })).status).toBe(401);

      const live = (await createKey({ scopes: ['content:read'] })).secret;
      for (const fake of [
        'cms_',
        'cms_nope',
        live.slice(0, -1) + (live.endsWith('A') ? 'B' : 'A'),
        `${live}x`,
        live.toUpperCase(),
      ]) {
        expect((await api.request('/v1/articles', { token: fake })).status, fake).toBe(401);
      }
    });

    it('validates what a key is made of', async () => {
      const past = new Date(api.clock.now().getTime() - 1000).toISOString();
      for (const json of [
        { scopes: ['content:read'] },
        { name: 'x', scopes: [] },
        { name: 'x', scopes: ['admin'] },
        { name: 'x', scopes: ['content:read', 'content:read'] },
        { name: 'x', scopes: 'content:read' },
        { name: 'x', scopes: ['content:read'], expiresAt: 'tomorrow' },
        { name: 'x', scopes: ['content:read'], expiresAt: past },
        { name: '', scopes: ['content:read'] },
      ]) {
        const res = await api.request('/v1/api-keys', { method: 'POST', token: owner, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }
      expect((await api.request('/v1/api-keys/not-a-uuid', { method: 'DELETE', token: owner })).status).toBe(404);
    });
  });
}
