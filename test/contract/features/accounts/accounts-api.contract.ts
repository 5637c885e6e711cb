import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registerOwner, registerPending } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

const PASSWORD = 'a long enough password';

/** Password reset, changing one's own account, cancelling a registration (docs/api.md#auth-and-accounts). */
export function runAccountsApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`password reset and own account (${name})`, () => {
    let api: ApiHarness;
    let token: string;
    beforeAll(async () => {
      api = await setup();
      token = (await registerOwner(api, 'reset@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const login = (password: string) =>
      api.request('/v1/auth/login', { method: 'POST', json: { email: 'reset@example.com', password } });

    it('answers the same for known and unknown addresses, and mails a link only to the known one', async () => {
      const before = api.codes('/reset-password').length;
      const unknown = await api.request('/v1/auth/password-reset', {
        method: 'POST',
        json: { email: 'nobody@example.com' },
      });
      expect(api.codes('/reset-password')).toHaveLength(before);
      const known = await api.request('/v1/auth/password-reset', {
        method: 'POST',
        json: { email: 'RESET@example.com' },
      });
      expect(unknown.status).toBe(202);
      expect(known.status).toBe(202);
      expect(await unknown.json()).toEqual(await known.json());
      expect(api.codes('/reset-password')).toHaveLength(before + 1);
    });

    it('resets once with the newest code, and ends every earlier session', async () => {
      await api.request('/v1/auth/password-reset', { method: 'POST', json: { email: 'reset@example.com' } });
      const old = api.lastCode('/reset-password');
      await api.request('/v1/auth/password-reset', { method: 'POST', json: { email: 'reset@example.com' } });
      const code = api.lastCode('/reset-password');
      const superseded = await api.request('/v1/auth/password-reset/confirm', {
        method: 'POST',
        json: { code: old, password: 'brand new password 1' },
      });
      expect(superseded.status).toBe(400);
      const weak = await api.request('/v1/auth/password-reset/confirm', {
        method: 'POST',
        json: { code, password: 'short' },
      });
      expect(weak.status).toBe(400);

      // A session issued in this same second must die too (token version, not iat).
      const fresh = (await (await login(PASSWORD)).json()).token;
      const ok = await api.request('/v1/auth/password-reset/confirm', {
        method: 'POST',
        json: { code, password: 'brand new password 1' },
      });
      expect(ok.status).toBe(200);
      for (const t of [token, fresh]) expect((await api.request('/v1/auth/me', { token: t })).status).toBe(401);
      const again = await api.request('/v1/auth/password-reset/confirm', {
        method: 'POST',
        json: { code, password: 'brand new password 2' },
      });
      expect(again.status).toBe(400);
      expect((await errorOf(again)).code).toBe('invalid_request');
      expect((await login(PASSWORD)).status).toBe(401);
      expect((await login('brand new password 1')).status).toBe(200);
    });

    it('expires reset codes after an hour', async () => {
      await api.request('/v1/auth/password-reset', { method: 'POST', json: { email: 'reset@example.com' } });
      api.clock.advance(60 * 60 * 1000 + 1000);
      const res = await api.request('/v1/auth/password-reset/confirm', {
        method: 'POST',
        json: { code: api.lastCode('/reset-password'), password: 'too late password' },
      });
      expect(res.status).toBe(400);
    });

    it('changes the display name, and the password only with the current one', async () => {
      const session = (await (await login('brand new password 1')).json()).token;
      const named = await api.request('/v1/auth/me', {
        method: 'PATCH',
        token: session,
        json: { displayName: '  Ada  ' },
      });
      expect(named.status).toBe(200);
      expect((await named.json()).user.displayName).toBe('Ada');
      const noCurrent = await api.request('/v1/auth/me', {
        method: 'PATCH',
        token: session,
        json: { password: 'another new password' },
      });
      expect(noCurrent.status).toBe(400);
      const wrong = await api.request('/v1/auth/me', {
        method: 'PATCH',
        token: session,
        json: { password: 'another new password', currentPassword: 'not it at all' },
      });
      expect(wrong.status).toBe(400);
      const changed = await api.request('/v1/auth/me', {
        method: 'PATCH',
        token: session,
        json: { password: 'another new password', currentPassword: 'brand new password 1' },
      });
      expect(changed.status).toBe(200);
      const body = await changed.json();
      expect((await api.request('/v1/auth/me', { token: session })).status).toBe(401);
      expect((await api.request('/v1/auth/me', { token: body.token })).status).toBe(200);
    });

    it('ends outstanding reset codes when the password is changed', async () => {
      const session = (await (await login('another new password')).json()).token;
      await api.request('/v1/auth/password-reset', { method: 'POST', json: { email: 'reset@example.com' } });
      const code = api.lastCode('/reset-password');
      const changed = await api.request('/v1/auth/me', {
        method: 'PATCH',
        token: session,
        json: { password: 'changed by the owner', currentPassword: 'another new password' },
      });
      expect(changed.status).toBe(200);
      const late = await api.request('/v1/auth/password-reset/confirm', {
        method: 'POST',
        json: { code, password: 'taken over password' },
      });
      expect(late.status).toBe(400);
      expect((await errorOf(late)).code).toBe('invalid_request');
      expect((await login('taken over password')).status).toBe(401);
      // Put back for the tests that follow.
      const restored = await api.request('/v1/auth/me', {
        method: 'PATCH',
        token: (await changed.json()).token,
        json: { password: 'brand new password 1', currentPassword: 'changed by the owner' },
      });
      expect(restored.status).toBe(200);
    });

    it('takes a long unicode password untruncated and refuses a 1 MB one quickly', async () => {
      const long = 'пароль-🔐-'.repeat(100);
      await api.request('/v1/auth/password-reset', { method: 'POST', json: { email: 'reset@example.com' } });
      const code = api.lastCode('/reset-password');
      expect(
        (await api.request('/v1/auth/password-reset/confirm', { method: 'POST', json: { code, password: long } }))
          .status,
      ).toBe(200);
      expect((await login(long)).status).toBe(200);
      expect((await login(long.slice(0, -1))).status).toBe(401);
      const started = Date.now();
      const huge = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'reset@example.com', password: 'x'.repeat(1_000_000) },
      });
      // Above MAX_JSON_BYTES: refused before the body is parsed.
      expect(huge.status).toBe(413);
      const tooLong = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'reset@example.com', password: 'x'.repeat(50_000) },
      });
      expect(tooLong.status).toBe(400);
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });

  describe(`cancelled registrations (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('removes the account and refuses its tokens; registration stays open', async () => {
      const pending = await registerPending(api, 'changed-my-mind@example.com');
      const res = await api.request('/v1/auth/registration', { method: 'DELETE', token: pending.token });
      expect(res.status).toBe(204);
      expect((await api.request('/v1/auth/me', { token: pending.token })).status).toBe(401);
      expect(await (await api.request('/v1/auth/registration')).json()).toEqual({ open: true });
      // The address is free again.
      expect((await registerPending(api, 'changed-my-mind@example.com')).token).toBeTruthy();
    });

    it('is refused to a verified account and without a session', async () => {
      const owner = await registerOwner(api, 'stays@example.com');
      expect((await api.request('/v1/auth/registration', { method: 'DELETE', token: owner.token })).status).toBe(403);
      expect((await api.request('/v1/auth/registration', { method: 'DELETE' })).status).toBe(401);
    });
  });
}
