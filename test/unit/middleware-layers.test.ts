import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../worker/src/http/env.js';
import { layers } from '../../worker/src/http/middleware/layers.js';

type Step = MiddlewareHandler<AppEnv>;

function recorder() {
  const seen: string[] = [];
  const passing =
    (name: string): Step =>
    (_c, next) => {
      seen.push(name);
      return next();
    };
  return { seen, passing };
}

describe('route layers', () => {
  it('puts each run of passing steps in one layer and keeps the order', () => {
    const { passing } = recorder();
    const a = passing('a');
    const b = passing('b');
    const answering: Step = async (_c, next) => next();
    const c = passing('c');
    expect(layers([a, b, answering, c], new Set([a, b, c]))).toHaveLength(3);
    expect(layers([a, b, c], new Set([a, b, c]))).toHaveLength(1);
    expect(layers([answering], new Set())).toEqual([answering]);
  });

  it('runs the steps in turn, lets later layers see what they prepared, and hands a throw to onError', async () => {
    const { seen, passing } = recorder();
    const after: Step = async (c, next) => {
      await next();
      seen.push(`after: ${c.res.status}`);
    };
    const refuse: Step = (c, next) => {
      if (c.req.query('refuse') !== undefined) throw new Error('refused');
      return next();
    };
    const steps = [passing('a'), after, passing('b'), refuse];
    const app = new Hono<AppEnv>();
    app.onError((err, c) => c.text(err.message, 400));
    app.on(['GET'], ['/x'], ...layers(steps, new Set([steps[0]!, steps[2]!, steps[3]!])), (c) => c.text('ok', 201));

    const ok = await app.request('/x');
    expect([ok.status, await ok.text()]).toEqual([201, 'ok']);
    expect(seen).toEqual(['a', 'b', 'after: 201']);

    seen.length = 0;
    const refused = await app.request('/x?refuse');
    expect([refused.status, await refused.text()]).toEqual([400, 'refused']);
    expect(seen).toEqual(['a', 'b', 'after: 400']);
  });

  it('keeps the answer of a step that answers itself when it has a layer of its own', async () => {
    const { seen, passing } = recorder();
    const early: Step = async (c) => c.text('early', 202);
    const first = passing('first');
    const app = new Hono<AppEnv>();
    app.on(['GET'], ['/y'], ...layers([first, early], new Set([first])), (c) => c.text('late'));
    const res = await app.request('/y');
    expect([res.status, await res.text()]).toEqual([202, 'early']);
    expect(seen).toEqual(['first']);
  });
});
