import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../worker/src/app/services.js';
import {
  needsOf,
  type Permission,
  POLICY,
  type PolicyPermission,
  permissionName,
  SCOPE_GRANTS,
  scopeGrants,
} from '../../worker/src/auth/policy.js';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../worker/src/features/api-keys/api-key.schema.js';
import type { RouteDef } from '../../worker/src/http/route.js';
import { createArticle, registerOwner } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import { nodeHarness } from '../support/node-harness.js';

/**
 * What docs/features.md promises about API keys, checked over every route the app
 * declares (ROUTES, which test/node/openapi.test.ts keeps equal to the
 * routes served) and every scope: a key gets past a route exactly when its
 * scope grants the route's permission, and whatever its scopes, never into
 * accounts, users, invitations, keys, the activity log, purge settings and
 * runs, or the system and update routes.
 */
const NO_KEY_REACHES = [
  '/v1/auth/',
  '/v1/user',
  '/v1/api-keys',
  '/v1/activity',
  '/v1/media/purge',
  '/v1/system/',
] as const;

const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const guarded = ROUTES.filter((op): op is Omit<RouteDef, 'allow'> & { allow: Permission } => op.allow !== 'public');

describe('API key scopes over every route', () => {
  let api: ApiHarness;
  const keys = new Map<string, string>();
  const combos: ApiKeyScope[][] = [...API_KEY_SCOPES.map((s) => [s]), [...API_KEY_SCOPES]];

  beforeAll(async () => {
    api = await nodeHarness({ db: 'sqlite', storage: 'local' });
    const owner = (await registerOwner(api, 'scopes-owner@example.com')).token;
    for (const scopes of combos) {
      const res = await api.request('/v1/api-keys', { method: 'POST', token: owner, json: { name: 'k', scopes } });
      expect(res.status).toBe(201);
      keys.set(scopes.join(' '), (await res.json()).secret);
    }
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('walks every permission of the policy table', () => {
    const used = new Set<PolicyPermission>(guarded.flatMap((op) => (typeof op.allow === 'string' ? [op.allow] : [])));
    // The one permission that guards no route: it decides what a read shows (checked below).
    used.add('content.readOffline');
    expect([...used].sort()).toEqual(Object.keys(POLICY).sort());
  });

  it('no scope grants an owner-only permission', () => {
    for (const grants of Object.values(SCOPE_GRANTS)) {
      for (const p of grants) expect(POLICY[p], p).not.toBe('owner');
    }
    // Features' own permissions (featurePermission) carry their scopes.
    for (const op of guarded) {
      if (typeof op.allow !== 'string' && needsOf(op.allow) === 'owner')
        expect(op.allow.keyScopes, op.path).toEqual([]);
    }
  });

  it('shows offline articles exactly to keys whose scopes grant content.readOffline', async () => {
    const owner = (
      await (
        await api.request('/v1/auth/login', {
          method: 'POST',
          json: { email: 'scopes-owner@example.com', password: 'a long enough password' },
        })
      ).json()
    ).token;
    const draft = await createArticle(api, owner, { title: 'Offline' });
    for (const scopes of combos) {
      const res = await api.request(`/v1/articles/${draft.id}`, { token: keys.get(scopes.join(' '))! });
      const granted = scopes.some((s) => SCOPE_GRANTS[s].includes('content.readOffline'));
      expect(res.status, scopes.join(' ')).toBe(granted ? 200 : 404);
    }
  });

  for (const scopes of combos) {
    it(`lets a key with ${scopes.join(' + ')} through exactly where its scopes reach`, async () => {
      const token = keys.get(scopes.join(' '))!;
      const wrong: string[] = [];
      for (const op of guarded) {
        const path = op.path.replace(/\{\w+\}/g, UNKNOWN_ID);
        const res = await api.request(path, {
          method: op.method.toUpperCase(),
          token,
          ...(op.method === 'get' ? {} : { json: {} }),
        });
        const granted = scopes.some((s) => scopeGrants(s, op.allow));
        const reachable = !NO_KEY_REACHES.some((prefix) => op.path.startsWith(prefix));
        const route = `${op.method.toUpperCase()} ${op.path} (${permissionName(op.allow)})`;
        if (res.status === 401) wrong.push(`${route}: 401 for a valid key`);
        if (granted && !reachable) wrong.push(`${route}: granted, but no key may reach it`);
        if (granted !== (res.status !== 403)) wrong.push(`${route}: ${res.status}, granted=${granted}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
