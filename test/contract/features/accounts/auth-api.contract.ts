import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registerPending, SECRET_FIELDS } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget } from '../../../support/api-harness.js';

/** Registration, verification, login and session tokens, per docs/api.md and docs/security.md. */
export function runAuthApiContract(name: string, setup: () => Promise<ApiHarness>, { jwtSecret }: ApiTarget) {
  describe(`auth API (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('is open before anyone verified; the first verified account becomes owner and closes it', async () => {
      expect(await (await api.request('/v1/auth/registration')).json()).toEqual({ open: true });
      const pending = await registerPending(api, 'late@example.com');
      const res = await api.request('/v1/auth/register', {
        method: 'POST',
        json: { email: 'First@Example.com', password: 'correct horse battery', displayName: 'First' },
      });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.user).toMatchObject({ email: 'first@example.com', displayName: 'First', verified: false });
      expect(Object.keys(body.user).sort()).toEqual(['createdAt', 'displayName', 'email', 'id', 'role', 'verified']);
      expect(typeof body.token).toBe('string');
      for (const field of SECRET_FIELDS) expect(JSON.stringify(body)).not.toContain(field);

      const code = api.lastCode('/verify');
      const verified = await api.request('/v1/auth/verify', { method: 'POST', json: { code } });
      expect(verified.status).toBe(200);
      const vbody = await verified.json();
      expect(vbody.user).toMatchObject({ email: 'first@example.com', role: 'owner', verified: true });
      expect(Object.keys(vbody).sort()).toEqual(['user']);

      expect(await (await api.request('/v1/auth/registration')).json()).toEqual({ open: false });
      const closed = await api.request('/v1/auth/register', {
        method: 'POST',
        json: { email: 'second@example.com', password: 'another long password' },
      });
      expect(closed.status).toBe(403);
      expect((await errorOf(closed)).code).toBe('registration_closed');
      // The other pending registration was cancelled: its token is refused.
      expect((await api.request('/v1/auth/me', { token: pending.token })).status).toBe(401);
      // A code works once.
      expect((await api.request('/v1/auth/verify', { method: 'POST', json: { code } })).status).toBe(400);
    });

    it('logs in with the same answer for an unknown e-mail and a wrong password', async () => {
      const ok = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'FIRST@example.com', password: 'correct horse battery' },
      });
      expect(ok.status).toBe(200);
      const { token, user } = await ok.json();
      expect(user.role).toBe('owner');
      const me = await api.request('/v1/auth/me', { token });
      expect(me.status).toBe(200);
      expect((await me.json()).user.email).toBe('first@example.com');

      const wrong = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'first@example.com', password: 'nope' },
      });
      const unknown = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'ghost@example.com', password: 'nope' },
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(await wrong.json()).toEqual(await unknown.json());
    });

    it('refuses bad registration input with the contract body', async () => {
      for (const json of [
        { email: 'not-an-email', password: 'long enough password' },
        { email: 'a@example.com', password: 'short' },
        { email: 'a@example.com', password: 'x'.repeat(1025) },
        { email: 'a@example.com' },
        'just a string',
      ]) {
        const res = await api.request('/v1/auth/register', { method: 'POST', json });
        // Registration is closed here, but input is validated first either way.
        expect([400, 403]).toContain(res.status);
        const err = await errorOf(res);
        expect(['invalid_request', 'registration_closed']).toContain(err.code);
      }
      const malformed = await api.request('/v1/auth/login', {
        method: 'POST',
        body: '{"email": ',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      expect((await errorOf(malformed)).code).toBe('invalid_request');
    });

    it('refuses forged, tampered and ill-typed tokens with 401', async () => {
      const { token, user } = await (
        await api.request('/v1/auth/login', {
          method: 'POST',
          json: { email: 'first@example.com', password: 'correct horse battery' },
        })
      ).json();
      const key = new TextEncoder().encode(jwtSecret);
      const now = Math.floor(Date.now() / 1000);
      const signed = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256' }) =>
        new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key);
      const base = { ver: 0, iss: 'edge-cms', iat: now, exp: now + 600 };
      const [h, p] = token.split('.');
      const unsecured = `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' })).replace(/=+$/, '')}.${p}.`;
      const candidates: Record<string, string> = {
        'alg none': unsecured,
        'bad signature': `${h}.${p}.${'A'.repeat(43)}`,
        truncated: token.slice(0, token.length - 5),
        garbage: 'not.a.token',
        oversized: 'a'.repeat(10_000),
        'user_id number': await signed({ ...base, user_id: 42 }),
        'user_id array': await signed({ ...base, user_id: [user.id] }),
        'user_id object': await signed({ ...base, user_id: { id: user.id } }),
        'user_id sql': await signed({ ...base, user_id: "' OR 1=1 --" }),
        'user_id unknown uuid': await signed({ ...base, user_id: '0190a000-0000-7000-8000-000000000000' }),
        expired: await signed({ ...base, user_id: user.id, iat: now - 7200, exp: now - 3600 }),
        'no exp': await signed({ ver: 0, iss: 'edge-cms', iat: now, user_id: user.id }),
        'future iat': await signed({ ...base, user_id: user.id, iat: now + 3600, exp: now + 7200 }),
        'other issuer': await signed({ ...base, iss: 'elsewhere', user_id: user.id }),
        'stale token version': await signed({ ...base, ver: 5, user_id: user.id }),
        'HS512 with our key': await signed({ ...base, user_id: user.id }, { alg: 'HS512' }),
      };
      for (const [label, bad] of Object.entries(candidates)) {
        const res = await api.request('/v1/auth/me', { token: bad });
        expect(res.status, label).toBe(401);
        expect((await errorOf(res)).code, label).toBe('unauthorized');
      }
      // The control: the same construction with correct claims is accepted.
      expect((await api.request('/v1/auth/me', { token: await signed({ ...base, user_id: user.id }) })).status).toBe(
        200,
      );
      expect((await api.request('/v1/auth/me')).status).toBe(401);
      expect((await api.request('/v1/auth/me', { headers: { authorization: `Basic ${token}` } })).status).toBe(401);
    });
  });

  describe(`verification codes (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('expire after 2 hours, and resending kills the previous code', async () => {
      const first = await registerPending(api, 'slow@example.com');
      const oldCode = api.lastCode('/verify');
      expect((await api.request('/v1/auth/verify/resend', { method: 'POST', token: first.token })).status).toBe(202);
      const newCode = api.lastCode('/verify');
      expect(newCode).not.toBe(oldCode);
      expect((await api.request('/v1/auth/verify', { method: 'POST', json: { code: oldCode } })).status).toBe(400);

      api.clock.advance(2 * 60 * 60 * 1000 + 1000);
      const expired = await api.request('/v1/auth/verify', { method: 'POST', json: { code: newCode } });
      expect(expired.status).toBe(400);
      expect((await errorOf(expired)).code).toBe('invalid_request');

      expect((await api.request('/v1/auth/verify/resend', { method: 'POST', token: first.token })).status).toBe(202);
      const fresh = await api.request('/v1/auth/verify', { method: 'POST', json: { code: api.lastCode('/verify') } });
      expect(fresh.status).toBe(200);
    });
  });

  describe(`first-owner race (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('20 parallel registrations and verifications make exactly one owner', async () => {
      const registered = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api.request('/v1/auth/register', {
            method: 'POST',
            json: { email: `racer${i}@example.com`, password: 'a long enough password' },
          }),
        ),
      );
      expect(registered.map((r) => r.status)).toEqual(Array(20).fill(201));
      const codes = api.codes('/verify');
      expect(codes).toHaveLength(20);
      const results = await Promise.all(
        codes.map((code) => api.request('/v1/auth/verify', { method: 'POST', json: { code } })),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expect([400, 403]).toContain(r.status);
      const owner = (await winners[0]!.json()).user;
      expect(owner.role).toBe('owner');
      expect(await (await api.request('/v1/auth/registration')).json()).toEqual({ open: false });
      // Every loser's session ended with its cancelled registration.
      const sessions = await Promise.all(registered.map(async (r) => (await r.json()).token as string));
      const alive = await Promise.all(
        sessions.map((token) => api.request('/v1/auth/me', { token }).then((r) => r.status)),
      );
      expect(alive.filter((s) => s === 200)).toHaveLength(1);
    });
  });

  describe(`registrations in flight while the first account verifies (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('leaves no other registrant behind, nor a session of one that works', async () => {
      const first = await registerPending(api, 'first-in@example.com');
      const code = api.lastCode('/verify');
      const register = (i: number) =>
        api.request('/v1/auth/register', {
          method: 'POST',
          json: { email: `in-flight-${i}@example.com`, password: 'a long enough password' },
        });
      // Registrations before, during and after the verification: those that
      // passed the open check are hashing their password while it commits.
      const early = Array.from({ length: 8 }, (_, i) => register(i));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const verified = api.request('/v1/auth/verify', { method: 'POST', json: { code } });
      const during = Array.from({ length: 8 }, (_, i) => register(8 + i));
      expect((await verified).status).toBe(200);
      const late = Array.from({ length: 4 }, (_, i) => register(16 + i));
      const answers = await Promise.all([...early, ...during, ...late]);

      // 503 is allowed: twenty registrations queue on one row lock, and on a
      // loaded machine some wait past DATABASE_TIMEOUT_MS. What matters is
      // below: whatever each was told, none of them survives.
      for (const res of answers) expect([201, 403, 503]).toContain(res.status);
      const registrants = await Promise.all(
        answers
          .filter((r) => r.status === 201)
          .map(async (r) => (await r.json()) as { token: string; user: { email: string } }),
      );
      // Looked at before any registrant's request, which would cancel it on
      // the spot: the database itself holds no other account.
      const owner = (
        await (
          await api.request('/v1/auth/login', {
            method: 'POST',
            json: { email: 'first-in@example.com', password: 'a long enough password' },
          })
        ).json()
      ).token;
      const users = (await (await api.request('/v1/user?limit=100', { token: owner })).json()).items;
      expect(users.map((u: { id: string }) => u.id)).toEqual([first.id]);
      for (const { token, user } of registrants) {
        expect((await api.request('/v1/auth/me', { token })).status, user.email).toBe(401);
        const login = await api.request('/v1/auth/login', {
          method: 'POST',
          json: { email: user.email, password: 'a long enough password' },
        });
        expect(login.status, user.email).toBe(401);
      }
    });
  });
}
