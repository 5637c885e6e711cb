import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import { type ApiHarness, PUBLIC_URL } from '../../../support/api-harness.js';
import { JPEG_400x300 } from '../../../support/images.js';

type Json = Record<string, unknown>;

/** Slugs, excerpts, rendered html and feature images of articles, on every backend and workerd. */
export function runArticleContentApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`article content API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const patch = (id: string, json: Json) =>
      api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json });
    const post = (json: Json) => api.request('/v1/articles', { method: 'POST', token: owner, json });
    const site = async () => {
      const res = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: 'Blog', baseUrl: 'https://blog.example' },
      });
      return (await res.json()).site.id as string;
    };
    const listed = async (query: string, token?: string) => {
      const res = await api.request(`/v1/articles?${query}`, token ? { token } : {});
      expect(res.status).toBe(200);
      return (await res.json()).items as Json[];
    };

    it('makes the slug from the title, with -2, -3 when it is taken', async () => {
      const a = await createArticle(api, owner, { title: 'Ça va? Crème brûlée & Co.' });
      expect(a.slug).toBe('ca-va-creme-brulee-co');
      const b = await createArticle(api, owner, { title: 'Ça va — crème brûlée, co' });
      expect(b.slug).toBe('ca-va-creme-brulee-co-2');
      const c = await createArticle(api, owner, { title: 'ça va crème brûlée co' });
      expect(c.slug).toBe('ca-va-creme-brulee-co-3');
      expect((await createArticle(api, owner, { title: '日本語' })).slug).toMatch(/^article(-\d+)?$/);
      const long = await createArticle(api, owner, { title: 'word '.repeat(39).trim() });
      expect((long.slug as string).length).toBeLessThanOrEqual(200);
      expect(long.slug).toMatch(/^[a-z0-9-]+$/);
    });

    it('gives twenty articles of one title created at once twenty distinct slugs, none refused', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => post({ title: 'Same title' })));
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
      const slugs = await Promise.all(answers.map(async (r) => (await r.json()).article.slug as string));
      expect(new Set(slugs).size).toBe(20);
      for (const slug of slugs) expect(slug).toMatch(/^same-title(-[a-z0-9]+)?$/);
    });

    it('takes an explicit slug, refuses a clash with 409 conflict and a malformed one with 400', async () => {
      const a = await createArticle(api, owner, { title: 'Mine', slug: 'my-own-slug' });
      expect(a.slug).toBe('my-own-slug');
      const clash = await post({ title: 'Other', slug: 'my-own-slug' });
      expect(clash.status).toBe(409);
      expect((await errorOf(clash)).code).toBe('conflict');
      for (const slug of ['Upper', 'with space', 'ü', '', 'x'.repeat(201), 7]) {
        const res = await post({ title: 'Bad', slug });
        expect(res.status).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }
      expect((await post({ title: 'Long', slug: 'x'.repeat(200) })).status).toBe(201);
    });

    it('edits the slug; a clash is 409 and changes nothing', async () => {
      const a = await createArticle(api, owner, { title: 'Editable' });
      const b = await createArticle(api, owner, { title: 'Taken one' });
      const renamed = await patch(a.id, { slug: 'renamed-slug' });
      expect(renamed.status).toBe(200);
      expect((await renamed.json()).article.slug).toBe('renamed-slug');
      const clash = await patch(a.id, { slug: b.slug, title: 'Changed?' });
      expect(clash.status).toBe(409);
      expect((await errorOf(clash)).code).toBe('conflict');
      const after = (await (await api.request(`/v1/articles/${a.id}`, { token: owner })).json()).article;
      expect(after).toMatchObject({ slug: 'renamed-slug', title: 'Editable' });
    });

    it('scopes slugs per site and finds an article by slug (and siteId) under the read rules', async () => {
      const [s1, s2] = [await site(), await site()];
      const one = await createArticle(api, owner, { title: 'Shared name', siteId: s1 });
      const two = await createArticle(api, owner, { title: 'Shared name', siteId: s2 });
      expect(one.slug).toBe('shared-name');
      expect(two.slug).toBe('shared-name');
      const moved = await patch(two.id, { siteId: s1 });
      expect(moved.status).toBe(409);

      // Offline: only a reader of offline articles finds it.
      expect(await listed(`slug=shared-name&siteId=${s1}`)).toEqual([]);
      expect((await listed(`slug=shared-name&siteId=${s1}`, owner)).map((a) => a.id)).toEqual([one.id]);
      await api.request(`/v1/articles/${one.id}/publish`, { method: 'POST', token: owner });
      expect((await listed(`slug=shared-name&siteId=${s1}`)).map((a) => a.id)).toEqual([one.id]);
      expect((await listed('slug=shared-name', owner)).map((a) => a.id).sort()).toEqual([one.id, two.id].sort());
      expect(await listed('slug=no-such-article')).toEqual([]);
      const bad = await api.request('/v1/articles?slug=Not%20A%20Slug');
      expect(bad.status).toBe(400);
    });

    it('answers an excerpt: the given one, else plain text from the body of at most 300 characters', async () => {
      const body = `# Title\n\nSome *emphasis* and a [link](https://example.com).\n\n${'word '.repeat(200)}`;
      const derived = await createArticle(api, owner, { title: 'Derived', body });
      expect(derived.excerpt).toMatch(/^Title Some emphasis and a link\. word word/);
      expect((derived.excerpt as string).length).toBeLessThanOrEqual(300);
      const given = await createArticle(api, owner, { title: 'Given', body, excerpt: 'Hand written.' });
      expect(given.excerpt).toBe('Hand written.');
      const cleared = await (await patch(given.id, { excerpt: '' })).json();
      expect(cleared.article.excerpt).toBe(derived.excerpt);
      expect((await post({ title: 'Too long', excerpt: 'x'.repeat(501) })).status).toBe(400);
      expect((await post({ title: 'Max', excerpt: 'x'.repeat(500) })).status).toBe(201);
    });

    it('answers sanitised html in one article always and in lists with ?include=html', async () => {
      const body =
        '# Hi\n\n| a | b |\n|---|---|\n| 1 | ~~2~~ |\n\n- [x] done\n\n[bad](javascript:alert(1)) <script>x</script>';
      const a = await createArticle(api, owner, { title: 'Rendered', body });
      expect(a.html).toContain('<h1 id="hi">Hi</h1>');
      expect(a.html).toContain('<table>');
      expect(a.html).toContain('<s>2</s>');
      expect(a.html).toContain('<input type="checkbox" checked');
      expect(a.html).not.toMatch(/<script|href="javascript:/i);
      expect(a.html).toContain('&lt;script&gt;');
      const read = (await (await api.request(`/v1/articles/${a.id}`, { token: owner })).json()).article;
      expect(read.html).toBe(a.html);
      const withoutHtml = (await listed('limit=100', owner)).find((x) => x.id === a.id)!;
      expect(withoutHtml).not.toHaveProperty('html');
      const withHtml = (await listed('limit=100&include=html', owner)).find((x) => x.id === a.id)!;
      expect(withHtml.html).toBe(a.html);
      expect((await api.request('/v1/articles?include=body')).status).toBe(400);

      // An HTML body is sanitised; a change of body or of format alone renders again.
      const html = await (
        await patch(a.id, { format: 'html', body: '<p onclick="x()">Hello<img src=x onerror=y></p>' })
      ).json();
      expect(html.article.html).toBe('<p>Hello<img src="x"></p>');
      const plain = await (await patch(a.id, { format: 'plaintext' })).json();
      expect(plain.article.html).toBe(
        '<p>&lt;p onclick=&quot;x()&quot;&gt;Hello&lt;img src=x onerror=y&gt;&lt;/p&gt;</p>',
      );
      const text = await (await patch(a.id, { body: 'line one\nline two' })).json();
      expect(text.article.html).toBe('<p>line one<br>\nline two</p>');

      // Links to our images are absolute (PUBLIC_URL); the site's own paths stay the site's.
      const image = '/static/uploadedImages/0190a000-0000-7000-8000-000000000001.png';
      const linked = await (
        await patch(a.id, { format: 'markdown', body: `![pic](${image}) [home](/about) [big](${image})` })
      ).json();
      expect(linked.article.html).toBe(
        `<p><img src="${PUBLIC_URL}${image}" alt="pic"> <a href="/about">home</a> <a href="${PUBLIC_URL}${image}">big</a></p>\n`,
      );
    });

    it('shows library images in html with srcset, sizes, size, lazy loading and caption; headings with ids', async () => {
      const a = await createArticle(api, owner, { title: 'Pictures' });
      const image = (await (await upload(api, owner, a.id, JPEG_400x300)).json()).image;
      const named = await api.request(`/v1/media/${image.id}`, {
        method: 'PATCH',
        token: owner,
        json: { alt: 'A test card', caption: 'Seen <from> the hill' },
      });
      expect(named.status).toBe(200);
      const path = `/static/uploadedImages/${image.filename}`;
      // Pasted with this CMS's origins (PUBLIC_URL, the request's), stored relative; another host's stays as typed.
      const body = `# Intro\n\n![](${PUBLIC_URL}${path} "Title")\n\n## Intro\n\n![x](http://localhost${path})\n\n![y](https://cdn.example${path})`;
      const { article } = await (await patch(a.id, { body })).json();
      expect(article.body).toBe(
        `# Intro\n\n![](${path} "Title")\n\n## Intro\n\n![x](${path})\n\n![y](https://cdn.example${path})`,
      );
      // The variants, then the original at its own width.
      const srcset = `${image.srcset}, ${image.url} 400w`;
      expect(image.srcset).not.toBe('');
      const facts = `width="400" height="300" srcset="${srcset}" sizes="(max-width: 400px) 100vw, 400px" loading="lazy" decoding="async"`;
      const figure = `<figure><img src="${image.url}" alt="A test card" title="Title" ${facts}><figcaption>Seen &lt;from&gt; the hill</figcaption></figure>`;
      expect(article.html).toBe(
        `<h1 id="intro">Intro</h1>\n${figure}\n<h2 id="intro-2">Intro</h2>\n` +
          `<figure><img src="${image.url}" alt="x" ${facts}><figcaption>Seen &lt;from&gt; the hill</figcaption></figure>\n` +
          `<p><img src="https://cdn.example${path}" alt="y"></p>\n`,
      );
      // The widths offered are the API's own srcset (none wider than the image); the first is served.
      const served = await api.request(srcset.split(' ')[0]!);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      // Reads answer what the write stored, lists with ?include=html too.
      const read = (await (await api.request(`/v1/articles/${a.id}`, { token: owner })).json()).article;
      expect(read.html).toBe(article.html);
      const listedHtml = (await listed('limit=100&include=html', owner)).find((x) => x.id === a.id)!;
      expect(listedHtml.html).toBe(article.html);
    });

    it('takes one of the article’s images as feature image, with its size and srcset', async () => {
      const a = await createArticle(api, owner, { title: 'Featured' });
      const other = await createArticle(api, owner, { title: 'Other' });
      const image = (await (await upload(api, owner, a.id, JPEG_400x300)).json()).image;
      const foreign = (await (await upload(api, owner, other.id, JPEG_400x300)).json()).image;
      expect(a.featureImage).toBeNull();
      const res = await patch(a.id, { featureImageId: image.id });
      expect(res.status).toBe(200);
      const { article } = await res.json();
      expect(article.featureImageId).toBe(image.id);
      expect(article.featureImage).toMatchObject({ url: image.url, width: 400, height: 300 });
      expect(typeof article.featureImage.alt).toBe('string');
      const candidates = (article.featureImage.srcset as string).split(', ');
      expect(candidates.length).toBeGreaterThan(0);
      for (const candidate of candidates) {
        const [url, width] = candidate.split(' ');
        expect(url).toBe(`${image.url}?w=${Number.parseInt(width!, 10)}`);
        expect(Number.parseInt(width!, 10)).toBeLessThanOrEqual(400);
      }

      for (const featureImageId of [foreign.id, '0190a000-0000-7000-8000-000000000000', 'nope']) {
        const bad = await patch(a.id, { featureImageId });
        expect(bad.status).toBe(400);
        expect((await errorOf(bad)).code).toBe('invalid_request');
      }
      expect((await post({ title: 'New', featureImageId: image.id })).status).toBe(400);
      const cleared = await (await patch(a.id, { featureImageId: null })).json();
      expect(cleared.article).toMatchObject({ featureImageId: null, featureImage: null });

      // An image that is deleted is no feature image any more.
      await patch(a.id, { featureImageId: image.id });
      expect((await api.request(`/v1/media/${image.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      const after = (await (await api.request(`/v1/articles/${a.id}`, { token: owner })).json()).article;
      expect(after).toMatchObject({ featureImageId: null, featureImage: null });
    });
    it('reads an article by slug under the read rules: in a site, or in any; a slug shared by sites asks for siteId', async () => {
      const [s1, s2] = [await site(), await site()];
      const a = await createArticle(api, owner, { title: 'By slug', slug: 'by-slug', siteId: s1 });
      const bySlug = (path: string, token?: string) => api.request(`/v1/articles/slug/${path}`, token ? { token } : {});
      const idOf = async (res: Awaited<ReturnType<typeof bySlug>>) => {
        expect(res.status).toBe(200);
        return (await res.json()).article.id as string;
      };
      expect((await bySlug('by-slug')).status).toBe(404); // offline: hidden from the public
      expect(await idOf(await bySlug('by-slug', owner))).toBe(a.id);
      await api.request(`/v1/articles/${a.id}/publish`, { method: 'POST', token: owner });
      const read = await bySlug('by-slug');
      const byId = await api.request(`/v1/articles/${a.id}`);
      expect(await read.json()).toEqual(await byId.json());
      expect(await idOf(await bySlug(`by-slug?siteId=${s1}`))).toBe(a.id);
      for (const path of [`by-slug?siteId=${s2}`, 'no-such-article', 'Not%20A%20Slug', 'by-slug/seo']) {
        expect((await bySlug(path)).status, path).toBe(404);
      }
      expect((await bySlug('by-slug?siteId=nope')).status).toBe(400);
      expect((await bySlug('by-slug?include=html')).status).toBe(400);
      // Another article of that slug elsewhere, offline: only a reader of offline articles sees two.
      const b = await createArticle(api, owner, { title: 'By slug', slug: 'by-slug', siteId: s2 });
      expect(await idOf(await bySlug('by-slug'))).toBe(a.id);
      const ambiguous = await bySlug('by-slug', owner);
      expect(ambiguous.status).toBe(400);
      expect((await errorOf(ambiguous)).issues).toEqual([expect.objectContaining({ path: 'siteId' })]);
      expect(await idOf(await bySlug(`by-slug?siteId=${s2}`, owner))).toBe(b.id);
    });

    it('embeds authors in credit order and the online neighbours of the same site on single reads when asked', async () => {
      const s1 = await site();
      const author = async (name: string, slug: string) =>
        (await (await api.request('/v1/authors', { method: 'POST', token: owner, json: { name, slug } })).json())
          .author as Json;
      const [x, y] = [await author('Xavier', 'xavier'), await author('Yan', 'yan')];
      const made: Json[] = [];
      for (const title of ['First', 'Second', 'Draft', 'Third']) {
        const created = await createArticle(api, owner, { title, siteId: s1, authorIds: [y.id, x.id] });
        if (title !== 'Draft')
          await api.request(`/v1/articles/${created.id}/publish`, { method: 'POST', token: owner });
        made.push(created);
        api.clock.advance(1_000);
      }
      await createArticle(api, owner, { title: 'Elsewhere' }); // no site: never a neighbour
      const [first, second, draft, third] = made as [Json, Json, Json, Json];
      const get = async (id: unknown, query: string, token?: string) => {
        const res = await api.request(`/v1/articles/${id}?${query}`, token ? { token } : {});
        expect(res.status, query).toBe(200);
        return { etag: res.headers.get('etag'), article: (await res.json()).article as Json };
      };
      const ref = (a: Json) => ({ id: a.id, slug: a.slug, title: a.title });
      const plain = (await get(second.id, '')).article;
      expect(plain).not.toHaveProperty('authors');
      expect(plain).not.toHaveProperty('next');
      const { article } = await get(second.id, 'include=authors,adjacent');
      expect(article.authorIds).toEqual([y.id, x.id]);
      expect(article.authors).toEqual([y, x].map(({ createdAt: _, ...rest }) => rest));
      expect([article.previous, article.next]).toEqual([ref(first), ref(third)]);
      expect((await get(first.id, 'include=adjacent')).article).toMatchObject({ previous: null, next: ref(second) });
      expect((await get(third.id, 'include=adjacent')).article).toMatchObject({ previous: ref(second), next: null });
      // An offline article was never published: it has no place among them.
      expect((await get(draft.id, 'include=adjacent', owner)).article).toMatchObject({ previous: null, next: null });
      const bySlug = await api.request(`/v1/articles/slug/${second.slug}?siteId=${s1}&include=adjacent`);
      expect((await bySlug.json()).article.next).toEqual(ref(third));
      // An editor's read keeps the version as its ETag only without include (embedded rows have versions of their own).
      expect((await get(second.id, '', owner)).etag).toBe(`"v${plain.version}"`);
      expect((await get(second.id, 'include=authors', owner)).etag).not.toBe(`"v${plain.version}"`);
      for (const query of ['include=html', 'include=authors&include=adjacent', 'include=']) {
        expect((await api.request(`/v1/articles/${second.id}?${query}`)).status, query).toBe(400);
      }
    });
  });
}
