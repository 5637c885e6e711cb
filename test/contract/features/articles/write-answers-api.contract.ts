import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, registerOwner, registerPending, upload } from '../../../support/api-flows.js';
import type { ApiHarness, TestResponse } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';

const SECRET_BODY = 'The draft nobody outside may read';

/**
 * Writing is not reading: a write answers only what the caller
 * may read, and a patch that names no field changes nothing.
 */
export function runWriteAnswersApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`article writes answer only what the caller may read (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let writer: string;
    let readerWriter: string;
    let media: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
      const key = async (scopes: string[]) => {
        const res = await api.request('/v1/api-keys', { method: 'POST', token: owner, json: { name: 'k', scopes } });
        return (await res.json()).secret as string;
      };
      writer = await key(['content:write']);
      readerWriter = await key(['content:read', 'content:write']);
      media = await key(['media:write']);
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const read = async (id: string) =>
      (await (await api.request(`/v1/articles/${id}`, { token: owner })).json()).article;
    const expectNothingShown = async (res: TestResponse) => {
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
    };

    it('answers 204 and nothing to a content:write key for an offline article, the article once it is online', async () => {
      const draft = await createArticle(api, owner, { title: 'Draft', body: SECRET_BODY });
      const path = `/v1/articles/${draft.id}`;

      await expectNothingShown(await api.request(path, { method: 'PATCH', token: writer, json: { title: 'Renamed' } }));
      expect(await read(draft.id)).toMatchObject({ title: 'Renamed', body: SECRET_BODY });
      await expectNothingShown(
        await api.request(`${path}/seo`, { method: 'PUT', token: writer, json: { metaTitle: 'Meta' } }),
      );
      expect((await read(draft.id)).seo.metaTitle).toBe('Meta');
      await expectNothingShown(await api.request(`${path}/unpublish`, { method: 'POST', token: writer }));

      // Online, everyone may read it: the answer shows it.
      const published = await api.request(`${path}/publish`, { method: 'POST', token: writer });
      expect(published.status).toBe(200);
      expect((await published.json()).article).toMatchObject({ status: 'online', body: SECRET_BODY });
      const edited = await api.request(path, { method: 'PATCH', token: writer, json: { body: 'Public now' } });
      expect(edited.status).toBe(200);
      expect((await edited.json()).article.body).toBe('Public now');
      await expectNothingShown(await api.request(`${path}/unpublish`, { method: 'POST', token: writer }));

      // A key that may also read offline articles, and a verified user, see them.
      const both = await api.request(path, { method: 'PATCH', token: readerWriter, json: { title: 'Seen' } });
      expect(both.status).toBe(200);
      expect((await both.json()).article).toMatchObject({ title: 'Seen', status: 'offline' });
      const mine = await api.request(path, { method: 'PATCH', token: owner, json: { title: 'Mine' } });
      expect(mine.status).toBe(200);
      expect((await mine.json()).article.title).toBe('Mine');
    });

    it('changes nothing for a patch that names no field: no updatedAt bump, no activity entry', async () => {
      const draft = await createArticle(api, owner, { title: 'Still', body: SECRET_BODY });
      const before = await read(draft.id);
      api.clock.advance(60_000);
      for (const json of [{}, { unknown: 'ignored' }]) {
        await expectNothingShown(
          await api.request(`/v1/articles/${draft.id}`, { method: 'PATCH', token: writer, json }),
        );
        const own = await api.request(`/v1/articles/${draft.id}`, { method: 'PATCH', token: owner, json });
        expect(own.status).toBe(200);
        expect((await own.json()).article).toEqual(before);
      }
      expect(await read(draft.id)).toEqual(before);
      const log = (await (await api.request('/v1/activity?action=article.update&limit=100', { token: owner })).json())
        .items;
      expect(log.filter((e: { subjectId: string }) => e.subjectId === draft.id)).toEqual([]);
      // Unknown articles are still a 404.
      const unknown = await api.request('/v1/articles/0190a000-0000-7000-8000-000000000000', {
        method: 'PATCH',
        token: writer,
        json: {},
      });
      expect(unknown.status).toBe(404);
    });

    it('leaves sites and authors alone on an empty patch', async () => {
      const site = (
        await (
          await api.request('/v1/sites', {
            method: 'POST',
            token: owner,
            json: { name: 'S', baseUrl: 'https://s.example' },
          })
        ).json()
      ).site;
      const author = (
        await (
          await api.request('/v1/authors', { method: 'POST', token: owner, json: { name: 'A', slug: 'a-empty' } })
        ).json()
      ).author;
      api.clock.advance(60_000);
      const siteAnswer = await api.request(`/v1/sites/${site.id}`, { method: 'PATCH', token: owner, json: {} });
      expect(await siteAnswer.json()).toEqual({ site });
      const authorAnswer = await api.request(`/v1/authors/${author.id}`, { method: 'PATCH', token: owner, json: {} });
      expect(await authorAnswer.json()).toEqual({ author });
      const log = (await (await api.request('/v1/activity?limit=100', { token: owner })).json()).items;
      expect(log.filter((e: { action: string }) => ['site.update', 'author.update'].includes(e.action))).toEqual([]);
    });

    it('answers an upload with the image alone, never the article', async () => {
      const draft = await createArticle(api, owner, { title: 'With image', body: SECRET_BODY });
      const res = await upload(api, media, draft.id, PNG_1x1, 'a.png', 'image/png');
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(Object.keys(body)).toEqual(['image']);
      expect(JSON.stringify(body)).not.toContain(SECRET_BODY);
    });
  });

  describe(`an unverified registrant writes without reading (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('gets 204 for its writes on offline articles', async () => {
      const { token } = await registerPending(api, 'pending@example.com');
      const created = await createArticle(api, token, { title: 'Mine', body: 'my words' });
      expect((await api.request(`/v1/articles/${created.id}`, { token })).status).toBe(404);
      const patched = await api.request(`/v1/articles/${created.id}`, { method: 'PATCH', token, json: {} });
      expect(patched.status).toBe(204);
      expect(await patched.text()).toBe('');
      const renamed = await api.request(`/v1/articles/${created.id}`, {
        method: 'PATCH',
        token,
        json: { title: 'Renamed' },
      });
      expect(renamed.status).toBe(204);
    });
  });
}
