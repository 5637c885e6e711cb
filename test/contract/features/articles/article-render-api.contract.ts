import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, registerOwner } from '../../../support/api-flows.js';
import { type ApiHarness, PUBLIC_URL, type SetupApi } from '../../../support/api-harness.js';

/** Small bounds (MAX_MARKDOWN_BYTES, MAX_RENDER_BYTES), so the hostile bodies below stay quick on every backend. */
const BOUND = 65_536;
const OTHER_BOUND = 2 * BOUND;
/** The audit's input: emphasis delimiters with no closer, the costliest Markdown per byte. */
const hostile = (bytes: number) => '*_'.repeat(Math.floor(bytes / 2));
const IMAGE = '/static/uploadedImages/0190a000-0000-7000-8000-000000000001.png';

/**
 * Bodies are rendered once, on the write, within MAX_MARKDOWN_BYTES
 * (Markdown) or MAX_RENDER_BYTES (the other formats); reads
 * serve the stored HTML (only our image links joined with the origin).
 * Counted through the app's own renderer (the harness's deps), on every
 * backend and workerd.
 */
export function runArticleRenderApiContract(name: string, setup: SetupApi) {
  describe(`article bodies are rendered once, within their bounds (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let renders = 0;
    beforeAll(async () => {
      api = await setup({ MAX_MARKDOWN_BYTES: String(BOUND), MAX_RENDER_BYTES: String(OTHER_BOUND) });
      owner = (await registerOwner(api, 'owner@example.com')).token;
      const renderer = api.deps.htmlRenderer;
      const render = renderer.render.bind(renderer);
      renderer.render = (body, format, context) => {
        renders++;
        return render(body, format, context);
      };
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const patch = (id: string, json: Record<string, unknown>) =>
      api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json });

    it('stores a body over its format’s bound whole, its html the text as escaped paragraphs, never rendering it', async () => {
      const before = renders;
      const over = `<b>bold?</b>\n\n${hostile(BOUND + 2)}`;
      const created = await api.request('/v1/articles', {
        method: 'POST',
        token: owner,
        json: { title: 'Hostile', body: over },
      });
      // The body has no length limit: it is kept, only its formatting is not rendered.
      expect(created.status).toBe(201);
      const stored = (await created.json()).article;
      expect(stored.body).toBe(over);
      expect(stored.html.startsWith('<p>&lt;b&gt;bold?&lt;/b&gt;</p>')).toBe(true);
      expect(stored.html).not.toContain('<em>');
      expect(renders - before).toBe(0);

      const a = await createArticle(api, owner, { title: 'Small', body: 'small' });
      // Eight times the bound (with its html it still fits D1's row), and multi-byte text, which counts in
      // bytes: under the bound in characters, over it in UTF-8.
      for (const body of [hostile(8 * BOUND), 'é'.repeat(BOUND / 2 + 1)]) {
        const edit = await patch(a.id, { body });
        expect(edit.status).toBe(200);
        expect((await edit.json()).article.html).not.toContain('<em>');
      }
      expect(renders - before).toBe(1); // the small article's own render only
      // Other formats have their own, larger bound.
      const html = `<p>${'x'.repeat(OTHER_BOUND - 8)}</p>`;
      expect((await patch(a.id, { body: html, format: 'html' })).status).toBe(200);
      const overHtml = await patch(a.id, { body: `${html}<p>x</p>`, format: 'html' });
      expect(overHtml.status).toBe(200);
      expect((await overHtml.json()).article.html.startsWith('<p>&lt;p&gt;xxx')).toBe(true);
      expect(renders - before).toBe(2); // and the html body at its bound
    });

    it('renders a hostile body at the bound once: reads and lists serve what the write stored', async () => {
      const body = `![pic](${IMAGE})\n\n${hostile(BOUND - 128)}`;
      const before = renders;
      const a = await createArticle(api, owner, { title: 'At the bound', body });
      expect(renders - before).toBe(1);
      expect(a.html as string).toContain(`<img src="${PUBLIC_URL}${IMAGE}" alt="pic">`);
      expect(a.html as string).toContain('<em>_</em>');
      await patch(a.id, { title: 'Renamed' }); // no body, no format: nothing to render
      expect((await api.request(`/v1/articles/${a.id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const anonymous = (await (await api.request(`/v1/articles/${a.id}`)).json()).article;
        expect(anonymous.html).toBe(a.html);
      }
      const listed = (await (await api.request('/v1/articles?include=html&limit=100', { token: owner })).json()).items;
      expect(listed.find((x: { id: string }) => x.id === a.id).html).toBe(a.html);
      expect(renders - before).toBe(1);
    });

    it('renders a row stored without html (written before the column) once, on its first read', async () => {
      const a = await createArticle(api, owner, { title: 'Old row', body: `Old ![pic](${IMAGE})` });
      // As such a row stands: html null (a patch of html alone writes the column as given).
      await api.deps.repos.articles.update(a.id, { html: null }, new Date());
      const before = renders;
      const first = (await (await api.request(`/v1/articles/${a.id}`, { token: owner })).json()).article;
      expect(first.html).toBe(a.html);
      expect(renders - before).toBe(1);
      const again = (await (await api.request(`/v1/articles/${a.id}`, { token: owner })).json()).article;
      expect(again.html).toBe(a.html);
      const listed = (await (await api.request('/v1/articles?include=html&limit=100', { token: owner })).json()).items;
      expect(listed.find((x: { id: string }) => x.id === a.id).html).toBe(a.html);
      expect(renders - before).toBe(1);
      expect((await api.deps.repos.articles.findById(a.id))?.html).toBe(`<p>Old <img src="${IMAGE}" alt="pic"></p>\n`);
    });

    it('answers an old row whose body is over the bound with its text as paragraphs, stored so, never rendering it', async () => {
      const a = await createArticle(api, owner, { title: 'Old and long', body: 'short' });
      // As a row written before the bound and before the column: a long hostile body, html null.
      await api.deps.repos.articles.update(a.id, { body: hostile(BOUND + 2), html: null }, new Date());
      const before = renders;
      for (let i = 0; i < 2; i++) {
        const read = (await (await api.request(`/v1/articles/${a.id}`, { token: owner })).json()).article;
        expect(read.html.startsWith('<p>*_*_')).toBe(true);
      }
      expect(renders - before).toBe(0);
      expect((await api.deps.repos.articles.findById(a.id))?.html?.startsWith('<p>*_*_')).toBe(true);
    });
  });
}
