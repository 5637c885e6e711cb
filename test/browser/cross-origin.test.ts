import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_400x300 } from '../support/images.js';
import { apiCall, type Cms, createOwner, expectNoProblems, newPage, POLL, startCms } from './admin-helpers.js';

/**
 * What a site's own frontend does, in Chromium: a page served from another
 * origin (another host name and port) shows a CMS image and fetches a CMS
 * article with its rendered html (whose image links point at the CMS) and
 * its feature image (with srcset). The CMS allows the site's origin because
 * a site record names it.
 */

interface Frontend {
  origin: string;
  close(): Promise<void>;
}

/** A tiny static server: one page, no CSP of its own, that loads from the CMS at `cms`. */
async function startFrontend(host: string, page: (origin: string) => string): Promise<Frontend> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    if (req.url !== '/') {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(page(origin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const frontendPage = (cms: string, imagePath: string, articleId: string) => `<!doctype html>
<html><head><title>Frontend</title><link rel="icon" href="data:,"></head><body>
<img id="photo" alt="" src="${cms}${imagePath}">
<img id="variant" alt="" src="${cms}${imagePath}?w=160&format=webp">
<h1 id="title">…</h1>
<img id="feature" alt="">
<div id="content"></div>
<p id="error"></p>
<script>
fetch(${JSON.stringify(`${cms}/v1/articles/${articleId}`)})
  .then((res) => res.json())
  .then((body) => {
    const { title, html, featureImage } = body.article;
    document.getElementById('title').textContent = title;
    document.getElementById('content').innerHTML = html;
    const feature = document.getElementById('feature');
    feature.srcset = featureImage.srcset;
    feature.sizes = '160px';
    feature.src = featureImage.url;
  })
  .catch((err) => { document.getElementById('error').textContent = String(err); });
</script>
</body></html>`;

/**
 * A reading page as a frontend developer writes it from docs/api.md: the
 * list with its bylines (`include=authors`), then one article by its slug
 * with its html, under a stylesheet that lets images shrink to the screen.
 */
const readingPage = (cms: string, slug: string) => `<!doctype html>
<html><head><title>Reader</title><link rel="icon" href="data:,">
<style>img { max-width: 100%; height: auto; }</style>
<script>
window.shifted = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shifted += entry.value;
}).observe({ type: 'layout-shift', buffered: true });
</script></head><body>
<ul id="list"></ul>
<article id="content"></article>
<p id="error"></p>
<script>
const cms = ${JSON.stringify(cms)};
const json = (path) => fetch(cms + path).then((res) => res.json());
(async () => {
  const { items } = await json('/v1/articles?limit=10&include=authors');
  for (const a of items) {
    const li = document.createElement('li');
    li.textContent = a.title + ' by ' + a.authors.map((author) => author.name).join(', ');
    document.getElementById('list').append(li);
  }
  const { article } = await json('/v1/articles/slug/' + encodeURIComponent(${JSON.stringify(slug)}));
  document.getElementById('content').innerHTML = article.html;
})().catch((err) => { document.getElementById('error').textContent = String(err); });
</script>
</body></html>`;

describe('a frontend on another origin', () => {
  let cms: Cms;
  let token: string;
  let articleId: string;
  let imagePath: string;
  const frontends: Frontend[] = [];
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, 'owner@example.com');
    const created = await apiCall<{ article: { id: string } }>(cms.server, 'POST', '/v1/articles', token, {
      title: 'Hello from the CMS',
    });
    articleId = created.body.article.id;
    await apiCall(cms.server, 'POST', `/v1/articles/${articleId}/publish`, token);
    const form = new FormData();
    form.set('file', new Blob([JPEG_400x300 as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'photo.jpg');
    const uploaded = await fetch(`${cms.server.url}/v1/articles/${articleId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const image = ((await uploaded.json()) as { image: { id: string; url: string } }).image;
    imagePath = new URL(image.url).pathname;
    // The body names the image by its path, as the admin writes it; the html the API answers links it absolutely.
    const edited = await apiCall(cms.server, 'PATCH', `/v1/articles/${articleId}`, token, {
      body: `Some **bold** words.\n\n![in the text](${imagePath})`,
      featureImageId: image.id,
    });
    expect(edited.status).toBe(200);
  });
  afterAll(async () => {
    for (const f of frontends) await f.close();
    await cms?.stop();
  });

  it('shows a CMS image and a fetched article on the site’s own origin', async () => {
    // localhost against the CMS's 127.0.0.1, on a port of its own: another origin, and another site.
    const frontend = await startFrontend('localhost', () => frontendPage(cms.server.url, imagePath, articleId));
    frontends.push(frontend);
    const site = await apiCall(cms.server, 'POST', '/v1/sites', token, {
      name: 'Frontend',
      baseUrl: `${frontend.origin}/blog`,
    });
    expect(site.status).toBe(201);

    const { page, problems } = await newPage(cms);
    await page.goto(`${frontend.origin}/`);
    await page.getByRole('heading', { name: 'Hello from the CMS' }).waitFor(POLL);
    for (const id of ['photo', 'variant']) {
      await expect
        .poll(() => page.locator(`#${id}`).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL)
        .toBeGreaterThan(0);
    }
    expect(await page.locator('#photo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
    expect(await page.locator('#variant').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    // The article's html, on this page: its image comes from the CMS.
    await expect.poll(() => page.locator('#content strong').textContent(), POLL).toBe('bold');
    const inText = page.locator('#content img');
    expect(await inText.getAttribute('src')).toBe(`${cms.server.url}${imagePath}`);
    // Responsive: the browser picks a width from its srcset (the original's 400w on this 375 px screen).
    await expect
      .poll(() => inText.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL)
      .toBeGreaterThan(0);
    expect(await inText.evaluate((img: HTMLImageElement) => img.currentSrc)).toBe(`${cms.server.url}${imagePath}`);
    // The feature image, picked from its srcset: a variant no wider than the original.
    await expect
      .poll(() => page.locator('#feature').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL)
      .toBeGreaterThan(0);
    expect(await page.locator('#feature').evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\?w=\d+$/);
    expect(await page.locator('#error').textContent()).toBe('');
    expectNoProblems(problems);
  });

  it('lists articles with bylines and shows one by slug with responsive images that load without a shift', async () => {
    const author = await apiCall<{ author: { id: string } }>(cms.server, 'POST', '/v1/authors', token, {
      name: 'Ada Lovelace',
      slug: 'ada-lovelace',
    });
    const pictures = await apiCall<{ article: { id: string; slug: string } }>(
      cms.server,
      'POST',
      '/v1/articles',
      token,
      {
        title: 'Pictures from the harbour',
        authorIds: [author.body.author.id],
        body: `# The harbour\n\nMorning light.\n\n![Boats](${cms.server.url}${imagePath} "Boats at dawn")\n\n## Later\n\n![](${imagePath})`,
      },
    );
    expect(pictures.status).toBe(201);
    await apiCall(cms.server, 'POST', `/v1/articles/${pictures.body.article.id}/publish`, token);
    const reader = await startFrontend('localhost', () => readingPage(cms.server.url, pictures.body.article.slug));
    frontends.push(reader);
    await apiCall(cms.server, 'POST', '/v1/sites', token, { name: 'Reader', baseUrl: reader.origin });

    const { page, problems } = await newPage(cms);
    await page.goto(`${reader.origin}/`);
    await page.getByText('Pictures from the harbour by Ada Lovelace').waitFor(POLL);
    await page.getByRole('heading', { name: 'The harbour' }).waitFor(POLL);
    expect(await page.locator('#content h1').getAttribute('id')).toBe('the-harbour');
    expect(await page.locator('#content figure figcaption').textContent()).toBe('Boats at dawn');
    const images = page.locator('#content img');
    expect(await images.count()).toBe(2);
    for (const img of await images.all()) {
      expect(await img.getAttribute('width')).toBe('400');
      expect(await img.getAttribute('height')).toBe('300');
      expect(await img.getAttribute('loading')).toBe('lazy');
      expect(await img.getAttribute('srcset')).toContain(`${cms.server.url}${imagePath}?w=`);
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), POLL)
        .toBeGreaterThan(0);
      // Picked from the srcset, from the CMS.
      expect(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).toContain(`${cms.server.url}${imagePath}`);
    }
    expect(await page.evaluate(() => (window as unknown as { shifted: number }).shifted)).toBe(0);
    expect(await page.locator('#error').textContent()).toBe('');
    expectNoProblems(problems);
  });

  it('serves a readable API reference under its own CSP', async () => {
    const { page, problems } = await newPage(cms);
    const res = await page.goto(`${cms.server.url}/api-reference`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByText('/v1/articles/{id}', { exact: true }).first().waitFor(POLL);
    expectNoProblems(problems);
  });

  it('embeds images anywhere, but lets only allowed origins read the API', async () => {
    const stranger = await startFrontend('localhost', () => frontendPage(cms.server.url, imagePath, articleId));
    frontends.push(stranger);
    const { page, problems } = await newPage(cms);
    await page.goto(`${stranger.origin}/`);
    await expect.poll(() => page.locator('#error').textContent(), POLL).toMatch(/TypeError/);
    expect(await page.locator('#title').textContent()).toBe('…');
    await expect
      .poll(() => page.locator('#photo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL)
      .toBe(400);
    // Chromium reports the refused read itself; nothing else went wrong.
    expect(problems.consoleErrors).toEqual([
      expect.stringMatching(/has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header/),
      expect.stringMatching(/Failed to load resource: net::ERR_FAILED$/),
    ]);
    expect(problems.pageErrors).toEqual([]);
  });
});
