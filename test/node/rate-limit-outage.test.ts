import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../worker/src/core/domain/errors.js';
import { registerOwner } from '../support/api-flows.js';
import { type ApiHarness, harnessFor } from '../support/api-harness.js';
import { type NodeHarness, nodeHarness } from '../support/node-harness.js';

/**
 * Found by the reliability faults step: logins answered 503 during a
 * database outage spent the client's login budget, so once the database was
 * back every login was a 429 for the rest of the window.
 */
describe('rate limits through an outage', () => {
  let real: NodeHarness;
  beforeAll(async () => {
    real = await nodeHarness({ db: 'sqlite', storage: 'local' });
    await registerOwner(real, 'budget@example.com');
  });
  afterAll(async () => {
    await real?.cleanup();
  });

  it('gives back the unit of every 503, so logins work at once when the database returns', async () => {
    const down = () => Promise.reject(new DomainError('unavailable', 'The database is unavailable'));
    const users = { ...real.deps.repos.users, findByEmail: down };
    const outage: ApiHarness = harnessFor(
      { ...real.deps, repos: { ...real.deps.repos, users } },
      async () => undefined,
    );
    // The outage app shares the real one's limiter (the same deps.rateLimiter).
    const login = (api: ApiHarness, password: string) =>
      api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'budget@example.com', password },
        headers: { 'x-test-peer': '198.51.100.77' },
      });
    const limit = real.deps.settings.rateLimits.login.limit;
    for (let i = 0; i < limit + 3; i++) expect((await login(outage, 'a long enough password')).status).toBe(503);
    expect((await login(real, 'a long enough password')).status).toBe(200);
    // Real failures still count.
    for (let i = 0; i < limit; i++) expect((await login(real, 'wrong password 123')).status).toBe(401);
    expect((await login(real, 'wrong password 123')).status).toBe(429);
  });
});

describe('rate limits through an outage of the limiter store itself', () => {
  let real: NodeHarness;
  beforeAll(async () => {
    real = await nodeHarness({ db: 'sqlite', storage: 'local' });
    await registerOwner(real, 'store@example.com');
  });
  afterAll(async () => {
    await real?.cleanup();
  });

  it('gives back, once the store answers again, the units it could not refund while down', async () => {
    // On MySQL/PostgreSQL the budgets live in the database: a take can pass
    // just before the outage and the refund of its 503 then fails too.
    let down = false;
    const limiter = real.deps.rateLimiter;
    const flaky = {
      take: limiter.take.bind(limiter),
      refund: (...args: Parameters<typeof limiter.refund>) =>
        down ? Promise.reject(new Error('store down')) : limiter.refund(...args),
    };
    const base = real.deps.repos.users;
    const users = {
      ...base,
      findByEmail: (email: string) =>
        down ? Promise.reject(new DomainError('unavailable', 'The database is unavailable')) : base.findByEmail(email),
    };
    // One app, as in production: the refunds it owes are kept by its middleware.
    const api = harnessFor(
      { ...real.deps, rateLimiter: flaky, repos: { ...real.deps.repos, users } },
      async () => undefined,
    );
    const login = () =>
      api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'store@example.com', password: 'a long enough password' },
        headers: { 'x-test-peer': '198.51.100.78' },
      });
    const limit = real.deps.settings.rateLimits.login.limit;
    down = true;
    for (let i = 0; i < limit; i++) expect((await login()).status).toBe(503);
    // The budget is spent while the refunds cannot be made…
    expect((await login()).status).toBe(429);
    down = false;
    // …and given back before the first login once the store answers.
    expect((await login()).status).toBe(200);
  });
});
