import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { expectSecurityHeaders } from '../contract/features/system/system-api.contract.js';

/** The deployed shape: requests through the real Worker entry, assets binding included. */
describe('Worker entry', () => {
  it('serves the API, the admin pages and its not-found page with security headers', async () => {
    const version = await SELF.fetch('https://cms.example/v1/system/version');
    expect(version.status).toBe(200);
    expect(await version.json()).toMatchObject({ target: 'workers' });
    expectSecurityHeaders(version, 'version');
    expect(version.headers.get('x-request-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );

    for (const path of ['/', '/settings', '/articles/new']) {
      const page = await SELF.fetch(`https://cms.example${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toContain('<html');
      expectSecurityHeaders(page, path);
    }
    // An unknown page is the not-found page, not the dashboard.
    const unknown = await SELF.fetch('https://cms.example/articles/some-deep-link');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Page not found');
    expectSecurityHeaders(unknown, 'unknown page');
    const missing = await SELF.fetch('https://cms.example/v1/nope');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, '404');
  });
});

describe('Worker client address', () => {
  it('rate limits by CF-Connecting-IP (set by the edge), through the real entry and Durable Objects', async () => {
    const login = (ip: string) =>
      SELF.fetch('https://cms.example/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip, 'x-real-ip': '10.0.0.1' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong' }),
      });
    for (let i = 0; i < 5; i++) expect((await login('203.0.113.77')).status).toBe(401);
    const limited = await login('203.0.113.77');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('203.0.113.78')).status).toBe(401);
  });
});
