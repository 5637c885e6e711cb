import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';
import { JPEG_400x300 } from '../../../support/images.js';

const HOSTILE_TITLE = `Tom & Jerry's <script>alert("x")</script> ]]> \u0007bell`;

/** Per-site sitemap.xml and RSS, per-article Open Graph / JSON-LD. */
export function runSyndicationApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`sitemaps, feeds and structured data (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let siteId: string;
    let authorId: string;
    const ids: Record<string, string> = {};

    const publish = async (id: string) =>
      expect((await api.request(`/v1/articles/${id}/publish`, { method: 'POST', token: owner })).status).toBe(200);

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'synd-owner@example.com')).token;
      siteId = (
        await (
          await api.request('/v1/sites', {
            method: 'POST',
            token: owner,
            json: { name: 'News & Views', baseUrl: 'https://news.example/', description: 'All <the> news' },
          })
        ).json()
      ).site.id;
      authorId = (
        await (
          await api.request('/v1/authors', {
            method: 'POST',
            token: owner,
            json: { name: 'Ada Lovelace', slug: 'ada' },
          })
        ).json()
      ).author.id;
      ids.plain = (
        await createArticle(api, owner, {
          title: 'Plain',
          body: '# Heading\n\nSome **bold** text with a [link](https://x.example).',
          siteId,
          authorIds: [authorId],
        })
      ).id;
      ids.canonical = (
        await createArticle(api, owner, {
          title: HOSTILE_TITLE.replace('\u0007', ''),
          siteId,
          seo: {
            canonicalUrl: 'https://elsewhere.example/a?b=1&c=2',
            ogImage: '/static/uploadedImages/0190a000-0000-7000-8000-000000000001.jpg',
            metaDescription: 'Meta <b>desc</b>',
          },
        })
      ).id;
      ids.noindex = (
        await createArticle(api, owner, { title: 'Hidden from crawlers', siteId, seo: { noindex: true } })
      ).id;
      ids.offline = (await createArticle(api, owner, { title: 'Draft', siteId })).id;
      ids.otherSite = (await createArticle(api, owner, { title: 'No site' })).id;
      for (const key of ['plain', 'canonical', 'noindex', 'otherSite']) await publish(ids[key]!);
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('lists the site’s online, indexable articles in its sitemap', async () => {
      const res = await api.request(`/v1/sites/${siteId}/sitemap.xml`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const xml = await res.text();
      expect(
        xml.startsWith(
          '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ),
      ).toBe(true);
      const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]).sort();
      expect(locs).toEqual(['https://elsewhere.example/a?b=1&amp;c=2', 'https://news.example/plain'].sort());
      expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T[\d:.]+Z<\/lastmod>/);
    });

    it('links articles by slug under the site’s URL pattern, which is checked', async () => {
      const setPattern = (urlPattern: unknown) =>
        api.request(`/v1/sites/${siteId}`, { method: 'PATCH', token: owner, json: { urlPattern } });
      const res = await setPattern('/blog/{slug}.html');
      expect(res.status).toBe(200);
      expect((await res.json()).site.urlPattern).toBe('/blog/{slug}.html');
      const sitemap = await (await api.request(`/v1/sites/${siteId}/sitemap.xml`)).text();
      expect(sitemap).toContain('<loc>https://news.example/blog/plain.html</loc>');
      const feed = await (await api.request(`/v1/sites/${siteId}/feed.xml`)).text();
      expect(feed).toContain('<link>https://news.example/blog/plain.html</link>');
      for (const bad of ['blog/{slug}', '/blog/', '/{slug}/{slug}', '/a b/{slug}', '/x?{slug}', 7]) {
        const refused = await setPattern(bad);
        expect(refused.status).toBe(400);
        expect((await errorOf(refused)).code).toBe('invalid_request');
      }
      expect((await (await setPattern(null)).json()).site.urlPattern).toBeNull();
      expect(await (await api.request(`/v1/sites/${siteId}/sitemap.xml`)).text()).toContain(
        '<loc>https://news.example/plain</loc>',
      );
    });

    it('serves an RSS 2.0 feed with every text escaped', async () => {
      const res = await api.request(`/v1/sites/${siteId}/feed.xml`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      const xml = await res.text();
      expect(xml).toContain('<title>News &amp; Views</title>');
      expect(xml).toContain('<description>All &lt;the&gt; news</description>');
      const items = xml.split('<item>').slice(1);
      expect(items).toHaveLength(3);
      expect(xml).not.toContain('<script>');
      expect(xml).toContain('Tom &amp; Jerry&apos;s &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt;');
      expect(xml).toContain('<description>Meta &lt;b&gt;desc&lt;/b&gt;</description>');
      expect(xml).toContain('<description>Heading Some bold text with a link.</description>');
      expect(xml).toMatch(/<pubDate>\w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT<\/pubDate>/);
      expect(xml).not.toContain('Draft');
    });

    it('gives a front end Open Graph, JSON-LD and robots for an article it may see', async () => {
      const res = await api.request(`/v1/articles/${ids.canonical}/structured-data`);
      expect(res.status).toBe(200);
      const data = await res.json();
      expect(data.robots).toBe('index, follow');
      expect(data.canonicalUrl).toBe('https://elsewhere.example/a?b=1&c=2');
      expect(data.openGraph).toMatchObject({
        'og:type': 'article',
        'og:url': 'https://elsewhere.example/a?b=1&c=2',
        'og:description': 'Meta <b>desc</b>',
        'og:site_name': 'News & Views',
        'og:image': `${api.deps.settings.publicUrl.replace(/\/$/, '')}/static/uploadedImages/0190a000-0000-7000-8000-000000000001.jpg`,
      });
      expect(data.jsonLd).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Article',
        publisher: { name: 'News & Views' },
      });
      expect(data.jsonLdText).not.toMatch(/[<>&]/);
      expect(JSON.parse(data.jsonLdText)).toEqual(data.jsonLd);

      const plain = await (await api.request(`/v1/articles/${ids.plain}/structured-data`)).json();
      expect(plain.jsonLd.author).toEqual([{ '@type': 'Person', name: 'Ada Lovelace' }]);
      expect(plain.openGraph['og:url']).toBe('https://news.example/plain');
      expect((await (await api.request(`/v1/articles/${ids.noindex}/structured-data`)).json()).robots).toBe('noindex');
      expect((await api.request(`/v1/articles/${ids.offline}/structured-data`)).status).toBe(404);
      expect((await api.request(`/v1/articles/${ids.offline}/structured-data`, { token: owner })).status).toBe(200);
    });

    it('describes with the excerpt, else text of the rendered html; shows the feature image in og, JSON-LD and RSS', async () => {
      const pictures = (
        await (
          await api.request('/v1/sites', {
            method: 'POST',
            token: owner,
            json: { name: 'Pictures', baseUrl: 'https://pictures.example' },
          })
        ).json()
      ).site.id;
      const table = await createArticle(api, owner, {
        title: 'Table',
        body: 'a | b\n--- | ---\n1 | 2',
        siteId: pictures,
      });
      const curated = await createArticle(api, owner, {
        title: 'Curated',
        body: '# Long\n\nThe body',
        excerpt: 'Hand written.',
        siteId: pictures,
      });
      const image = (await (await upload(api, owner, curated.id, JPEG_400x300)).json()).image;
      await api.request(`/v1/media/${image.id}`, { method: 'PATCH', token: owner, json: { alt: 'Card' } });
      await api.request(`/v1/articles/${curated.id}`, {
        method: 'PATCH',
        token: owner,
        json: { featureImageId: image.id },
      });
      for (const id of [table.id, curated.id]) await publish(id);

      const tableData = await (await api.request(`/v1/articles/${table.id}/structured-data`)).json();
      expect(tableData.openGraph['og:description']).toBe('a b 1 2');
      expect(tableData.openGraph).not.toHaveProperty('og:image');
      expect(tableData.jsonLd).not.toHaveProperty('image');
      const data = await (await api.request(`/v1/articles/${curated.id}/structured-data`)).json();
      expect(data.openGraph).toMatchObject({
        'og:description': 'Hand written.',
        'og:image': image.url,
        'og:image:width': '400',
        'og:image:height': '300',
        'og:image:alt': 'Card',
      });
      expect(data.jsonLd).toMatchObject({ description: 'Hand written.', image: [image.url] });

      const feed = await (await api.request(`/v1/sites/${pictures}/feed.xml`)).text();
      expect(feed).toContain('<description>a b 1 2</description>');
      expect(feed).toContain(
        `<description>Hand written.</description><enclosure url="${image.url}" length="${image.bytes}" type="image/jpeg"/></item>`,
      );
      expect(feed.match(/<enclosure /g)).toHaveLength(1);
    });

    it('answers 404 for an unknown site', async () => {
      const unknown = '0190a000-0000-7000-8000-000000000000';
      expect((await api.request(`/v1/sites/${unknown}/sitemap.xml`)).status).toBe(404);
      expect((await api.request(`/v1/sites/${unknown}/feed.xml`)).status).toBe(404);
      expect((await api.request('/v1/sites/nope/feed.xml')).status).toBe(404);
    });
  });
}
