import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { expectSecurityHeaders } from '../contract/api-system.contract.js';

/** The deployed shape: requests through the real Worker entry, assets binding included. */
describe('Worker entry', () => {
  it('serves the API and the admin shell with security headers', async () => {
    const version = await SELF.fetch('https://cms.example/v1/system/version');
    expect(version.status).toBe(200);
    expect(await version.json()).toMatchObject({ target: 'workers' });
    expectSecurityHeaders(version, 'version');

    for (const path of ['/', '/settings', '/articles/some-deep-link']) {
      const page = await SELF.fetch(`https://cms.example${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toContain('<html');
      expectSecurityHeaders(page, path);
    }
    const missing = await SELF.fetch('https://cms.example/v1/nope');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, '404');
  });
});
