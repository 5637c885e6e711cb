import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../worker/src/http/env.js';
import {
  prepareHeader,
  prepareHeaders,
  startPlainHeaders,
  takePlainHeaders,
} from '../../worker/src/http/middleware/plain-headers.js';

/**
 * The record must be invisible: every answer made through Hono's methods on
 * a context that started one carries exactly the headers it would carry had
 * every layer called `c.header` (http/middleware/plain-headers.ts).
 */
type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

function appWith(plain: boolean, handler: Handler) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    if (plain) startPlainHeaders(c, { 'X-Request-Id': 'id-1' });
    else c.header('X-Request-Id', 'id-1');
    await next();
  });
  app.use(async (c, next) => {
    if (plain) prepareHeader(c, 'Vary', 'Origin', true);
    else c.header('Vary', 'Origin', { append: true });
    await next();
  });
  app.use(async (c, next) => {
    const security = { 'X-Frame-Options': 'DENY', 'Cross-Origin-Resource-Policy': 'same-origin' };
    if (plain) prepareHeaders(c, security);
    else for (const [k, v] of Object.entries(security)) c.header(k, v);
    await next();
  });
  app.get('/x', async (c, next) => {
    if (plain) prepareHeader(c, 'Cross-Origin-Resource-Policy', 'cross-origin');
    else c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    await next();
  });
  app.get('/x', handler);
  app.onError((_err, c) => c.json({ error: 'boom' }, 500));
  return app;
}

const headersOf = (res: Response) => [...res.headers.entries()].sort(([a], [b]) => a.localeCompare(b));

async function same(handler: Handler) {
  const plain = await appWith(true, handler).request('/x');
  const reference = await appWith(false, handler).request('/x');
  expect(plain.status).toBe(reference.status);
  expect(headersOf(plain)).toEqual(headersOf(reference));
  expect(await plain.text()).toBe(await reference.text());
  return plain;
}

describe('plain header records', () => {
  it('c.json, c.text, c.body, c.html, c.newResponse, c.redirect and c.notFound carry every prepared header', async () => {
    const res = await same((c) => c.json({ a: 1 }, 201));
    expect(res.headers.get('x-request-id')).toBe('id-1');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    await same((c) => c.text('hi'));
    await same((c) => c.body('raw', 200, { 'Content-Type': 'text/csv' }));
    await same((c) => c.html('<p>x</p>'));
    await same((c) => c.newResponse(null, 204));
    await same((c) => c.redirect('/elsewhere'));
    await same((c) => c.notFound());
  });

  it('a handler’s own c.header lands after the prepared ones, as before: Vary appends, CORP overrides', async () => {
    const res = await same((c) => {
      c.header('Vary', 'Accept', { append: true });
      c.header('Cross-Origin-Resource-Policy', 'same-site');
      return c.json({});
    });
    expect(res.headers.get('vary')).toBe('Origin, Accept');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-site');
  });

  it('an error answer carries them too', async () => {
    const res = await same(() => {
      throw new Error('boom');
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('takePlainHeaders hands over the record once, and nothing after c.header', async () => {
    const taken: unknown[] = [];
    await appWith(true, (c) => {
      taken.push(takePlainHeaders(c), takePlainHeaders(c));
      return new Response('x');
    }).request('/x');
    expect(taken).toEqual([
      {
        'X-Request-Id': 'id-1',
        Vary: 'Origin',
        'X-Frame-Options': 'DENY',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      },
      undefined,
    ]);
    const afterHeader: unknown[] = [];
    await appWith(true, (c) => {
      c.header('X-Other', '1');
      afterHeader.push(takePlainHeaders(c));
      return c.json({});
    }).request('/x');
    expect(afterHeader).toEqual([undefined]);
  });
});
