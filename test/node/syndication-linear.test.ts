import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, registerOwner } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import { fastestOfEachAsync } from '../support/cpu-time.js';
import { nodeHarness } from '../support/node-harness.js';

const SIZE = 150_000;
const repeat = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

/**
 * A published body of 150,000 `[` made structured-data and
 * feed.xml take 8–13 s (nested-quantifier regular expressions over the whole
 * body). Measured as a ratio to the same answers for a plain body of the
 * same size, so the test checks the shape of the cost, not the machine.
 */
// MAX_MARKDOWN_BYTES raised past the 150,000-byte bodies: this test is about the feeds, not the render bound.
describe('feeds and structured data on hostile bodies (Node, SQLite)', () => {
  let api: ApiHarness;
  let owner: string;

  const site = async (name: string) =>
    (
      await (
        await api.request('/v1/sites', { method: 'POST', token: owner, json: { name, baseUrl: 'https://x.example' } })
      ).json()
    ).site.id as string;

  const published = async (siteId: string, body: string, format = 'markdown') => {
    const { id } = await createArticle(api, owner, { title: 'Body', body, format, siteId });
    expect((await api.request(`/v1/articles/${id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
    return id as string;
  };

  // The app runs in this process (and SQLite on its thread), so its CPU time is the request's.
  const read = (path: string) => async () => {
    const res = await api.request(path);
    await res.text();
    expect(res.status).toBe(200);
  };
  // Each pair timed in turns: a burst of load reaches both, not the one measured second.
  const fastest = (plainPath: string, hostilePath: string) => fastestOfEachAsync(read(plainPath), read(hostilePath));

  beforeAll(async () => {
    api = await nodeHarness({ db: 'sqlite', storage: 'local', settings: { MAX_MARKDOWN_BYTES: '262144' } });
    owner = (await registerOwner(api, 'linear@example.com')).token;
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it.each([
    ['[', 'markdown'],
    ['![', 'markdown'],
    ['[a](', 'markdown'],
    ['<a ', 'html'],
    ['<', 'markdown'],
  ])('%j × 150,000 (%s) costs what a plain body does', async (unit, format) => {
    const plainSite = await site('Plain');
    const hostileSite = await site('Hostile');
    const plain = await published(plainSite, repeat('lorem ipsum dolor sit amet '), format);
    const hostile = await published(hostileSite, repeat(unit), format);
    const floor = 2;
    const [plainFeed, hostileFeed] = await fastest(
      `/v1/sites/${plainSite}/feed.xml`,
      `/v1/sites/${hostileSite}/feed.xml`,
    );
    const [plainData, hostileData] = await fastest(
      `/v1/articles/${plain}/structured-data`,
      `/v1/articles/${hostile}/structured-data`,
    );
    expect(hostileFeed / Math.max(plainFeed, floor)).toBeLessThan(5);
    expect(hostileData / Math.max(plainData, floor)).toBeLessThan(5);
  });
});
