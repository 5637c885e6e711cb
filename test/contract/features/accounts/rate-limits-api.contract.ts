import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registerOwner } from '../../../support/api-flows.js';
import { type ApiHarness, TEST_PEER_HEADER } from '../../../support/api-harness.js';

/** Per-client budgets with the default settings: 5 failed logins / 15 min, 5 resets / hour, 10 verifications / 15 min. */
export function runRateLimitsApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`rate limits (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
      await registerOwner(api, 'limited@example.com');
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const login = (peer: string, password = 'wrong password', headers: Record<string, string> = {}) =>
      api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'limited@example.com', password },
        headers: { [TEST_PEER_HEADER]: peer, ...headers },
      });

    it('allows 5 failed logins per client, then 429 with Retry-After; other clients are untouched', async () => {
      for (let i = 0; i < 5; i++) expect((await login('203.0.113.1')).status).toBe(401);
      const limited = await login('203.0.113.1');
      expect(limited.status).toBe(429);
      expect((await errorOf(limited)).code).toBe('rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Even the right password waits: the budget is checked before the password.
      expect((await login('203.0.113.1', 'a long enough password')).status).toBe(429);
      expect((await login('203.0.113.2')).status).toBe(401);
    });

    it('does not count successful logins', async () => {
      for (let i = 0; i < 8; i++) expect((await login('203.0.113.3', 'a long enough password')).status).toBe(200);
    });

    it('believes no client-sent address header', async () => {
      const forged = ['x-real-ip', 'x-forwarded-for', 'cf-connecting-ip', 'true-client-ip'];
      for (let i = 0; i < 5; i++) {
        const h = forged[i % forged.length]!;
        expect((await login('203.0.113.4', 'wrong password', { [h]: `10.9.8.${i}` })).status).toBe(401);
      }
      expect(
        (await login('203.0.113.4', 'wrong password', { 'x-real-ip': '10.9.9.9', 'x-forwarded-for': '10.9.9.9' }))
          .status,
      ).toBe(429);
    });

    it('folds one client’s spellings and an IPv6 /64 into one bucket', async () => {
      const peers = [
        '2001:DB8:1:2::1',
        '2001:db8:1:2:ffff::9',
        '2001:db8:1:2:0:0:0:3',
        '[2001:db8:1:2::4]',
        '2001:0db8:0001:0002::5',
      ];
      for (const p of peers) expect((await login(p)).status).toBe(401);
      expect((await login('2001:db8:1:2:aaaa::1')).status).toBe(429);
      expect((await login('2001:db8:1:3::1')).status).toBe(401);
      for (const p of [
        '198.51.100.7',
        '::ffff:198.51.100.7',
        '::FFFF:198.51.100.7',
        '198.51.100.7',
        '::ffff:c633:6407',
      ]) {
        expect((await login(p)).status).toBe(401);
      }
      expect((await login('198.51.100.7')).status).toBe(429);
    });

    it('lets no more than the limit of 50 concurrent attempts reach a password check', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => login('203.0.113.50')));
      expect(results.filter((r) => r.status === 401)).toHaveLength(5);
      expect(results.filter((r) => r.status === 429)).toHaveLength(45);
    });

    it('limits password reset requests and confirmations, and verification attempts', async () => {
      const reset = () =>
        api.request('/v1/auth/password-reset', {
          method: 'POST',
          json: { email: 'x@example.com' },
          headers: { [TEST_PEER_HEADER]: '203.0.113.60' },
        });
      for (let i = 0; i < 5; i++) expect((await reset()).status).toBe(202);
      expect((await reset()).status).toBe(429);
      const confirm = () =>
        api.request('/v1/auth/password-reset/confirm', {
          method: 'POST',
          json: { code: 'A'.repeat(43), password: 'a long enough password' },
          headers: { [TEST_PEER_HEADER]: '203.0.113.60' },
        });
      expect((await confirm()).status).toBe(429);
      const verify = () =>
        api.request('/v1/auth/verify', {
          method: 'POST',
          json: { code: 'B'.repeat(43) },
          headers: { [TEST_PEER_HEADER]: '203.0.113.61' },
        });
      for (let i = 0; i < 10; i++) expect((await verify()).status).toBe(400);
      expect((await verify()).status).toBe(429);
    });

    it('limits registrations per client: 5 an hour, then 429 with Retry-After', async () => {
      const register = (peer: string, i: number) =>
        api.request('/v1/auth/register', {
          method: 'POST',
          json: { email: `flood-${peer}-${i}@example.com`, password: 'a long enough password' },
          headers: { [TEST_PEER_HEADER]: peer },
        });
      // Registration is closed here (403): every attempt spends the budget all the same.
      for (let i = 0; i < 5; i++) expect((await register('203.0.113.70', i)).status).toBe(403);
      const limited = await register('203.0.113.70', 5);
      expect(limited.status).toBe(429);
      expect((await errorOf(limited)).code).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await register('203.0.113.71', 0)).status).toBe(403);
    });

    it('limits guesses of the current password per client and per account; a right guess costs nothing', async () => {
      let { token } = await (
        await api.request('/v1/auth/login', {
          method: 'POST',
          json: { email: 'limited@example.com', password: 'a long enough password' },
          headers: { [TEST_PEER_HEADER]: '203.0.113.80' },
        })
      ).json();
      const change = (peer: string, currentPassword: string, password = 'a long enough password') =>
        api.request('/v1/auth/me', {
          method: 'PATCH',
          token,
          json: { password, currentPassword },
          headers: { [TEST_PEER_HEADER]: peer },
        });
      // Right guesses are given back: a user may change the password at will.
      for (let i = 0; i < 6; i++) {
        const res = await change('203.0.113.81', 'a long enough password');
        expect(res.status).toBe(200);
        token = (await res.json()).token;
      }
      for (let i = 0; i < 5; i++) expect((await change('203.0.113.81', `wrong guess ${i}`)).status).toBe(400);
      const limited = await change('203.0.113.81', 'wrong guess 5');
      expect(limited.status).toBe(429);
      expect((await errorOf(limited)).code).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address does not buy the account more guesses, not even the right one.
      expect((await change('203.0.113.82', 'wrong guess 6')).status).toBe(429);
      expect((await change('203.0.113.82', 'a long enough password')).status).toBe(429);
      // The display name needs no password, and no budget.
      const named = await api.request('/v1/auth/me', {
        method: 'PATCH',
        token,
        json: { displayName: 'Still here' },
        headers: { [TEST_PEER_HEADER]: '203.0.113.81' },
      });
      expect(named.status).toBe(200);
    });
  });
}
