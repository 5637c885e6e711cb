import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';

/**
 * Images keep their names and words (docs/api.md#media-library-variants-and-purge):
 * the uploaded file's name, sanitised, as `originalName` and the
 * download name; `alt` and `caption`, set on upload or later, bounded; all of
 * them searchable with `?q=`.
 */
export function runImageWordsApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`image names, alt text and captions (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'words@example.com')).token;
      articleId = (await createArticle(api, owner)).id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const uploadWith = (fileName: string, fields: Record<string, string> = {}) => {
      const form = new FormData();
      form.set('file', new Blob([PNG_1x1 as Uint8Array<ArrayBuffer>], { type: 'image/png' }), fileName);
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      return api.request(`/v1/articles/${articleId}/images`, { method: 'POST', token: owner, body: form });
    };
    const patch = (id: string, json: unknown, token = owner) =>
      api.request(`/v1/media/${id}`, { method: 'PATCH', token, json });

    it('keeps the uploaded name without its path or control characters, and alt and caption from the form', async () => {
      const res = await uploadWith('../../etc/Summer \u202Eholiday\u0007 2026.png', {
        alt: '  A dog on the beach  ',
        caption: 'Taken at dusk.\nSecond line',
      });
      expect(res.status).toBe(201);
      const { image } = await res.json();
      expect(image).toMatchObject({
        originalName: 'Summer holiday 2026.png',
        alt: 'A dog on the beach',
        caption: 'Taken at dusk.\nSecond line',
      });
      expect(image.filename).not.toContain('Summer');
      // The same words wherever the image is shown.
      const media = await (await api.request(`/v1/media/${image.id}`, { token: owner })).json();
      expect(media.image).toMatchObject({ originalName: image.originalName, alt: image.alt, caption: image.caption });
      const article = await (await api.request(`/v1/articles/${articleId}`, { token: owner })).json();
      expect(article.article.images.find((i: { id: string }) => i.id === image.id)).toMatchObject({
        alt: image.alt,
        caption: image.caption,
      });
      // A name with nothing left after sanitising, and no words: null and empty strings.
      const bare = (await (await upload(api, owner, articleId, PNG_1x1, ' ..\u0001', 'image/png')).json()).image;
      expect(bare).toMatchObject({ originalName: null, alt: '', caption: '' });
    });

    it('refuses alt text or a caption it would not keep as given, and writes nothing', async () => {
      const before = (await (await api.request(`/v1/media?limit=100`, { token: owner })).json()).items.length;
      for (const fields of [{ alt: 'x'.repeat(1001) }, { alt: 'two\nlines' }, { caption: 'bell\u0007' }] as Record<
        string,
        string
      >[]) {
        const res = await uploadWith('ok.png', fields);
        expect(res.status).toBe(400);
        expect((await errorOf(res)).issues?.[0]).toMatchObject({ path: Object.keys(fields)[0] });
      }
      expect((await (await api.request(`/v1/media?limit=100`, { token: owner })).json()).items).toHaveLength(before);
    });

    it('edits the name, alt and caption with PATCH /v1/media/{id}, only the fields given', async () => {
      const { image } = await (await uploadWith('first.png')).json();
      const edited = await patch(image.id, { alt: 'New alt', caption: 'New caption' });
      expect(edited.status).toBe(200);
      expect((await edited.json()).image).toMatchObject({
        originalName: 'first.png',
        alt: 'New alt',
        caption: 'New caption',
      });
      const renamed = await (await patch(image.id, { originalName: 'C:/Users/me/Renamed\u0000.png' })).json();
      expect(renamed.image).toMatchObject({ originalName: 'Renamed.png', alt: 'New alt' });
      const long = await (await patch(image.id, { originalName: `${'n'.repeat(300)}.jpeg` })).json();
      expect(Array.from(long.image.originalName as string)).toHaveLength(200);
      expect(long.image.originalName.endsWith('.jpeg')).toBe(true);
      expect((await (await patch(image.id, { originalName: null })).json()).image.originalName).toBeNull();
      expect((await (await patch(image.id, { alt: '' })).json()).image.alt).toBe('');
      // A patch naming no field changes nothing.
      const same = await patch(image.id, {});
      expect(same.status).toBe(200);
      expect((await same.json()).image).toMatchObject({ originalName: null, alt: '', caption: 'New caption' });

      for (const bad of [
        { alt: 'a'.repeat(1001) },
        { caption: 'c'.repeat(2001) },
        { originalName: '../..' },
        { alt: 5 },
      ]) {
        const res = await patch(image.id, bad);
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }
      expect((await patch('0190a000-0000-7000-8000-000000000000', { alt: 'x' })).status).toBe(404);
      const key = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'c', scopes: ['content:write'] },
      });
      expect((await patch(image.id, { alt: 'x' }, (await key.json()).secret)).status).toBe(403);
    });

    it('finds images by their original name, alt text or caption with ?q=', async () => {
      const { image } = await (
        await uploadWith('Quarterly-Report-Chart.png', { alt: 'Revenue bars', caption: 'Fig. 7' })
      ).json();
      const search = async (q: string) =>
        (await (await api.request(`/v1/media?q=${encodeURIComponent(q)}`, { token: owner })).json()).items.map(
          (i: { id: string }) => i.id,
        );
      expect(await search('quarterly-report')).toEqual([image.id]);
      expect(await search('REVENUE')).toEqual([image.id]);
      expect(await search('fig. 7')).toEqual([image.id]);
      expect(await search('no such words')).toEqual([]);
    });

    it('offers the original name as the download name with ?download=1', async () => {
      const { image } = await (await uploadWith('Été "quoted" 100%.png')).json();
      const res = await api.request(`${image.url}?download=1`);
      expect(res.status).toBe(200);
      const disposition = res.headers.get('content-disposition')!;
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
      const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
      expect(decodeURIComponent(encoded)).toBe(image.originalName);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG_1x1);
      expect((await api.request(image.url)).headers.get('content-disposition')).toBe('inline');
      // Without an original name, the stored filename.
      await patch(image.id, { originalName: null });
      const plain = await api.request(`${image.url}?download=1`);
      expect(plain.headers.get('content-disposition')).toContain(`filename="${image.filename}"`);
      await plain.arrayBuffer();
      for (const query of ['?download=0', '?download=1&download=1', '?download=1&w=160']) {
        const bad = await api.request(`${image.url}${query}`);
        expect(bad.status, query).toBe(400);
        await bad.arrayBuffer();
      }
    });
  });
}
