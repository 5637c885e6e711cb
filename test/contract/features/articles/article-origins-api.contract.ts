import { describe, expect, it } from 'vitest';
import { createArticle, registerOwner, upload } from '../../../support/api-flows.js';
import { type ApiTarget, type SetupApi, TEST_PEER_HEADER } from '../../../support/api-harness.js';
import { JPEG_400x300 } from '../../../support/images.js';

const PROXY = '10.9.0.1';
const CONFIGURED = 'https://cms.example';

/**
 * Where answers' links point: PUBLIC_URL, required in production (every
 * Worker; Node with NODE_ENV=production or under the supervisor); while it
 * is unset (development on Node) the origin asked, with the scheme a
 * TRUST_PROXY peer reports in X-Forwarded-Proto or Forwarded.
 */
export function runArticleOriginsApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  describe(`links in answers: PUBLIC_URL, or the origin asked (${name})`, () => {
    /** An online article showing one uploaded image; the image's path. */
    async function published(api: Awaited<ReturnType<SetupApi>>) {
      const owner = (await registerOwner(api, 'owner@example.com')).token;
      const a = await createArticle(api, owner, { title: 'Linked' });
      const image = (await (await upload(api, owner, a.id, JPEG_400x300)).json()).image;
      const path = new URL(image.url).pathname;
      await api.request(`/v1/articles/${a.id}`, { method: 'PATCH', token: owner, json: { body: `![pic](${path})` } });
      expect((await api.request(`/v1/articles/${a.id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
      return { id: a.id as string, path: path as string };
    }
    /** The links of an anonymous read: the image's url and the html's img src. */
    async function linksOf(api: Awaited<ReturnType<SetupApi>>, url: string, headers: Record<string, string> = {}) {
      const res = await api.request(url, { headers });
      expect(res.status).toBe(200);
      const { article } = await res.json();
      return { image: article.images[0].url as string, html: /src="([^"]+)"/.exec(article.html)?.[1] };
    }

    it('links to PUBLIC_URL whatever Host, X-Forwarded-Proto or Forwarded say', async () => {
      const api = await setup({ PUBLIC_URL: CONFIGURED, TRUST_PROXY: PROXY });
      try {
        const { id, path } = await published(api);
        const proxied = { [TEST_PEER_HEADER]: PROXY, 'x-forwarded-proto': 'http', forwarded: 'proto=http' };
        for (const [url, headers] of [
          [`http://a.example/v1/articles/${id}`, {}],
          [`http://b.example/v1/articles/${id}`, proxied],
        ] as const) {
          expect(await linksOf(api, url, headers)).toEqual({
            image: `${CONFIGURED}${path}`,
            html: `${CONFIGURED}${path}`,
          });
        }
      } finally {
        await api.cleanup();
      }
    });

    if (target.target === 'workers') {
      it('refuses to run a Worker without PUBLIC_URL, naming it', async () => {
        await expect(setup({ PUBLIC_URL: '' })).rejects.toThrow(/PUBLIC_URL: required in production/);
      });
      return;
    }

    it('without PUBLIC_URL (development), links to the origin asked, https where a trusted proxy says so', async () => {
      const api = await setup({ PUBLIC_URL: '', TRUST_PROXY: PROXY });
      try {
        const { id, path } = await published(api);
        const read = (host: string, headers: Record<string, string> = {}) =>
          linksOf(api, `http://${host}/v1/articles/${id}`, headers);
        const at = (origin: string) => ({ image: `${origin}${path}`, html: `${origin}${path}` });
        // Each host its own links, also when the first one's answer was cached.
        expect(await read('a.example')).toEqual(at('http://a.example'));
        expect(await read('a.example')).toEqual(at('http://a.example'));
        expect(await read('b.example:8080')).toEqual(at('http://b.example:8080'));
        // A trusted proxy's scheme counts, in either header; the last value is the nearest proxy's.
        const viaProxy = { [TEST_PEER_HEADER]: PROXY };
        expect(await read('a.example', { ...viaProxy, 'x-forwarded-proto': 'https' })).toEqual(at('https://a.example'));
        expect(await read('a.example', { ...viaProxy, forwarded: 'for=203.0.113.9;proto=https' })).toEqual(
          at('https://a.example'),
        );
        expect(await read('a.example', { ...viaProxy, forwarded: 'proto=https, for=10.9.0.2;proto=http' })).toEqual(
          at('http://a.example'),
        );
        expect(await read('a.example', { ...viaProxy, 'x-forwarded-proto': 'gopher' })).toEqual(at('http://a.example'));
        // Anyone else's is ignored, and does not leak into what the cache serves the proxy's clients.
        const spoofed = { [TEST_PEER_HEADER]: '203.0.113.5', 'x-forwarded-proto': 'https' };
        expect(await read('a.example', spoofed)).toEqual(at('http://a.example'));
        expect(await read('a.example', { ...viaProxy, 'x-forwarded-proto': 'https' })).toEqual(at('https://a.example'));
      } finally {
        await api.cleanup();
      }
    });
  });
}
