import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

const PASSWORD = 'a long enough password';

async function invite(api: ApiHarness, token: string, email: string) {
  const res = await api.request('/v1/user/invite', { method: 'POST', token, json: { email, role: 'admin' } });
  if (res.status !== 201) throw new Error(`invite: ${res.status} ${await res.text()}`);
  return { invitation: (await res.json()).invitation, code: api.lastCode('/accept-invite') };
}

async function accept(api: ApiHarness, code: string, displayName?: string) {
  return api.request('/v1/auth/invitation/accept', { method: 'POST', json: { code, password: PASSWORD, displayName } });
}

/** Invitations, users, roles and ownership (docs/api.md#users-and-invitations, docs/api.md#roles). */
export function runUsersApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`invitations (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('invites by e-mail, lists pending invitations without codes, and accepts once', async () => {
      const { invitation, code } = await invite(api, owner, 'Ada@Example.com');
      expect(invitation).toEqual({
        id: expect.any(String),
        email: 'ada@example.com',
        role: 'admin',
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
      });
      expect(new Date(invitation.expiresAt).getTime() - new Date(invitation.createdAt).getTime()).toBe(
        3 * 24 * 3600 * 1000,
      );
      const list = await (await api.request('/v1/user/invite', { token: owner })).json();
      expect(list.items.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
      expect(JSON.stringify(list)).not.toContain(code);

      const accepted = await accept(api, code, 'Ada');
      expect(accepted.status).toBe(201);
      const body = await accepted.json();
      expect(body.user).toMatchObject({ email: 'ada@example.com', role: 'admin', verified: true, displayName: 'Ada' });
      expect((await api.request('/v1/auth/me', { token: body.token })).status).toBe(200);
      expect((await accept(api, code)).status).toBe(400);
      expect((await (await api.request('/v1/user/invite', { token: owner })).json()).items).toEqual([]);
      // The address now belongs to a user: inviting it again is a conflict.
      const dup = await api.request('/v1/user/invite', {
        method: 'POST',
        token: owner,
        json: { email: 'ada@example.com' },
      });
      expect(dup.status).toBe(409);
    });

    it('renews with a new code, new dates and a new e-mail; the old link dies', async () => {
      const { invitation, code } = await invite(api, owner, 'bob@example.com');
      api.clock.advance(60_000);
      const res = await api.request(`/v1/user/invite/${invitation.id}/renew`, { method: 'POST', token: owner });
      expect(res.status).toBe(200);
      const renewed = (await res.json()).invitation;
      const newCode = api.lastCode('/accept-invite');
      expect(newCode).not.toBe(code);
      expect(new Date(renewed.createdAt).getTime()).toBeGreaterThan(new Date(invitation.createdAt).getTime());
      expect(new Date(renewed.expiresAt).getTime() - new Date(renewed.createdAt).getTime()).toBe(3 * 24 * 3600 * 1000);
      expect((await accept(api, code)).status).toBe(400);
      expect((await accept(api, newCode)).status).toBe(201);
    });

    it('cancels with 204, after which the code is dead and the id unknown', async () => {
      const { invitation, code } = await invite(api, owner, 'carol@example.com');
      expect((await api.request(`/v1/user/invite/${invitation.id}`, { method: 'DELETE', token: owner })).status).toBe(
        204,
      );
      expect((await accept(api, code)).status).toBe(400);
      expect((await api.request(`/v1/user/invite/${invitation.id}`, { method: 'DELETE', token: owner })).status).toBe(
        404,
      );
      expect(
        (await api.request(`/v1/user/invite/${invitation.id}/renew`, { method: 'POST', token: owner })).status,
      ).toBe(404);
    });

    it('expires after 3 days', async () => {
      const { code } = await invite(api, owner, 'dave@example.com');
      api.clock.advance(3 * 24 * 3600 * 1000 + 1000);
      const res = await accept(api, code);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    });

    it('20 parallel accepts of one code make one account', async () => {
      const { code } = await invite(api, owner, 'erin@example.com');
      const results = await Promise.all(Array.from({ length: 20 }, () => accept(api, code)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400)).toHaveLength(19);
      const users = await (await api.request('/v1/user?limit=100', { token: owner })).json();
      expect(users.items.filter((u: { email: string }) => u.email === 'erin@example.com')).toHaveLength(1);
    });
  });

  describe(`users and roles (${name})`, () => {
    let api: ApiHarness;
    let owner: { token: string; id: string };
    let admin: { token: string; id: string };
    beforeAll(async () => {
      api = await setup();
      owner = await registerOwner(api, 'boss@example.com');
      const { code } = await invite(api, owner.token, 'helper@example.com');
      const body = await (await accept(api, code)).json();
      admin = { token: body.token, id: body.user.id };
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('lets only the owner manage users and invitations', async () => {
      for (const [method, path] of [
        ['GET', '/v1/user'],
        ['GET', `/v1/user/${owner.id}`],
        ['PATCH', `/v1/user/${owner.id}`],
        ['DELETE', `/v1/user/${owner.id}`],
        ['GET', '/v1/user/invite'],
        ['POST', '/v1/user/invite'],
        ['POST', '/v1/system/update/check'],
        ['POST', '/v1/system/update/download'],
        ['POST', '/v1/system/update/apply'],
        ['POST', '/v1/system/update/rollback'],
      ] as const) {
        const asAdmin = await api.request(path, {
          method,
          token: admin.token,
          json: method === 'GET' || method === 'DELETE' ? undefined : { email: 'x@example.com' },
        });
        expect(asAdmin.status, `${method} ${path} as admin`).toBe(403);
        expect((await errorOf(asAdmin)).code).toBe('forbidden');
        expect((await api.request(path, { method })).status, `${method} ${path} anonymous`).toBe(401);
      }
      // An admin still does everything else the specification grants.
      expect(
        (await api.request('/v1/articles', { method: 'POST', token: admin.token, json: { title: 'By the admin' } }))
          .status,
      ).toBe(201);
    });

    it('lists, reads and edits users with public fields only', async () => {
      const page = await (await api.request('/v1/user', { token: owner.token })).json();
      expect(page.items.map((u: { email: string }) => u.email).sort()).toEqual([
        'boss@example.com',
        'helper@example.com',
      ]);
      for (const u of page.items)
        expect(Object.keys(u).sort()).toEqual(['createdAt', 'displayName', 'email', 'id', 'role', 'verified']);
      const read = await api.request(`/v1/user/${admin.id}`, { token: owner.token });
      expect((await read.json()).user.email).toBe('helper@example.com');
      const renamed = await api.request(`/v1/user/${admin.id}`, {
        method: 'PATCH',
        token: owner.token,
        json: { displayName: 'Helper' },
      });
      expect((await renamed.json()).user.displayName).toBe('Helper');
      for (const id of ['0190a000-0000-7000-8000-000000000000', 'nope']) {
        expect((await api.request(`/v1/user/${id}`, { token: owner.token })).status).toBe(404);
      }
      expect((await api.request(`/v1/user/${owner.id}`, { method: 'DELETE', token: owner.token })).status).toBe(409);
      expect(
        (await api.request(`/v1/user/${owner.id}`, { method: 'PATCH', token: owner.token, json: { role: 'admin' } }))
          .status,
      ).toBe(409);
    });

    it('transfers ownership: exactly one owner, the caller becomes admin', async () => {
      const res = await api.request(`/v1/user/${admin.id}`, {
        method: 'PATCH',
        token: owner.token,
        json: { role: 'owner' },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).user.role).toBe('owner');
      const me = await (await api.request('/v1/auth/me', { token: owner.token })).json();
      expect(me.user.role).toBe('admin');
      expect((await api.request('/v1/user', { token: owner.token })).status).toBe(403);
      const users = await (await api.request('/v1/user', { token: admin.token })).json();
      expect(users.items.filter((u: { role: string }) => u.role === 'owner')).toHaveLength(1);
      // The new owner may delete the old one; its tokens die with it.
      expect((await api.request(`/v1/user/${owner.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204);
      expect((await api.request('/v1/auth/me', { token: owner.token })).status).toBe(401);
      expect((await api.request(`/v1/user/${owner.id}`, { token: admin.token })).status).toBe(404);
    });
  });
}
