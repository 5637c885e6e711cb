import { describe, expect, it } from 'vitest';
import { createApp } from '../../worker/src/app/app.js';
import { parseSettings } from '../../worker/src/config/settings.js';
import type { AppDeps } from '../../worker/src/feature-api/deps.js';

/** Every port is a trap: the limiter fails, and nothing behind it may be reached. */
function depsWithBrokenLimiter(): { deps: AppDeps; reached: string[] } {
  const reached: string[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: a Proxy that stands in for every port and every member of one
  const trap = (name: string): any =>
    new Proxy(() => {}, {
      get: (_t, prop) => (prop === 'then' ? undefined : trap(`${name}.${String(prop)}`)),
      apply: () => {
        reached.push(name);
        throw new Error(`${name} must not be reached`);
      },
    });
  const deps = {
    settings: parseSettings({}, 'node'),
    version: { version: '0.0.0', commit: 'x', builtAt: 'x', target: 'node' },
    repos: trap('repos'),
    blobs: trap('blobs'),
    renderer: trap('renderer'),
    htmlRenderer: trap('htmlRenderer'),
    mailer: trap('mailer'),
    clock: { now: () => new Date() },
    ids: trap('ids'),
    passwords: trap('passwords'),
    tokens: trap('tokens'),
    assets: trap('assets'),
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    requestScope: { run: (_context, work) => work() },
    digest: trap('digest'),
    updates: trap('updates'),
    webhookTransport: trap('webhookTransport'),
    activityLog: trap('activityLog'),
    rateLimiter: {
      take: async () => {
        throw new Error('limiter store is down');
      },
      refund: async () => {},
    },
    peerAddress: () => '192.0.2.9',
    defer: () => {},
  } as AppDeps;
  return { deps, reached };
}

describe('a failing rate limiter', () => {
  it.each([
    ['/v1/auth/login', { email: 'a@example.com', password: 'x' }],
    ['/v1/auth/password-reset', { email: 'a@example.com' }],
    ['/v1/auth/password-reset/confirm', { code: 'A'.repeat(43), password: 'a long enough password' }],
    ['/v1/auth/verify', { code: 'A'.repeat(43) }],
  ])('closes %s with 503 and checks no password', async (path, json) => {
    const { deps, reached } = depsWithBrokenLimiter();
    const res = await createApp(deps).request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
    expect(reached).toEqual([]);
  });
});
