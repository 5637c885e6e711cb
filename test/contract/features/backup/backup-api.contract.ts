import { describe, expect, it } from 'vitest';
import { createArticle, errorOf, inviteAdmin, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import {
  ARCHIVE_TABLES,
  expectNothingImported,
  gunzipLines,
  gzipLines,
  importInto,
} from '../../../support/archives.js';
import { JPEG_400x300, PNG_QUADRANTS } from '../../../support/images.js';

const records = (lines: string[]) =>
  lines.map((l) => JSON.parse(l) as { kind: string; table?: string; [k: string]: unknown });

/** Export and import (docs/backups.md): one archive, the same on every target and database. */
export function runBackupApiContract(name: string, setup: SetupApi) {
  describe(`export and import (${name})`, () => {
    // Storage may be reset between tests (workerd's isolated storage): each test seeds its own source.
    let source: ApiHarness;
    let owner: string;
    let archive: Uint8Array;
    let articleId: string;
    let imageUrl: string;

    const exportFrom = async (api: ApiHarness, token: string) => {
      const res = await api.request('/v1/export', { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/gzip');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="edge-cms-export-[\d-]+\.ndjson\.gz"$/,
      );
      return new Uint8Array(await res.arrayBuffer());
    };
    const fresh = async () => {
      const api = await setup();
      return { api, token: (await registerOwner(api, 'new-owner@example.com')).token };
    };
    const seed = async () => {
      source = await setup();
      owner = (await registerOwner(source, 'owner@example.com')).token;
      await inviteAdmin(source, owner, 'admin@example.com');
      const site = (
        await (
          await source.request('/v1/sites', {
            method: 'POST',
            token: owner,
            json: { name: 'Blog', baseUrl: 'https://blog.example' },
          })
        ).json()
      ).site;
      const author = (
        await (
          await source.request('/v1/authors', { method: 'POST', token: owner, json: { name: 'Ada', slug: 'ada' } })
        ).json()
      ).author;
      const tag = (
        await (await source.request('/v1/tags', { method: 'POST', token: owner, json: { name: 'Travel' } })).json()
      ).tag;
      const moved = await source.request('/v1/redirects', {
        method: 'POST',
        token: owner,
        json: { from: '/travel/', to: '/tags/travel' },
      });
      expect(moved.status).toBe(201);
      const article = await createArticle(source, owner, {
        title: 'Moved',
        body: '# Hi\n\nthere',
        format: 'markdown',
        siteId: site.id,
        authorIds: [author.id],
        tagIds: [tag.id],
      });
      articleId = article.id;
      const image = (await (await upload(source, owner, articleId, JPEG_400x300)).json()).image;
      imageUrl = new URL(image.url, 'http://cms.test').pathname;
      await upload(source, owner, articleId, PNG_QUADRANTS, 'q.png', 'image/png');
      expect(
        (
          await source.request(`/v1/articles/${articleId}/seo`, {
            method: 'PUT',
            token: owner,
            json: { metaTitle: 'Meta', noindex: true },
          })
        ).status,
      ).toBe(200);
      expect((await source.request(`/v1/articles/${articleId}/publish`, { method: 'POST', token: owner })).status).toBe(
        200,
      );
      // The publication kept a revision; a draft waits.
      const draft = await source.request(`/v1/articles/${articleId}/draft`, {
        method: 'PUT',
        token: owner,
        json: { title: 'Moved again', seo: { metaTitle: 'Later' } },
      });
      expect(draft.status).toBe(200);
      await createArticle(source, owner, { title: 'Draft two' });
      archive = await exportFrom(source, owner);
    };

    it('exports every exported table and every original, with no secret', async () => {
      await seed();
      const lines = await gunzipLines(archive);
      const all = records(lines);
      expect(all[0]).toMatchObject({ kind: 'header', format: 'edge-cms.export/1', product: 'edge-cms' });
      expect(all.at(-1)).toEqual({ kind: 'end', rows: all.filter((r) => r.kind === 'row').length, blobs: 2 });
      const tables = new Set(all.filter((r) => r.kind === 'row').map((r) => r.table));
      for (const t of ARCHIVE_TABLES) expect(tables).toContain(t);
      const text = lines.join('\n');
      for (const secret of [
        'passwordHash',
        'pbkdf2',
        'verificationCodeHash',
        'resetCodeHash',
        'secretHash',
        'tokenHash',
      ])
        expect(text).not.toContain(secret);
    });

    it('imports into a new installation: the same articles, sites, authors, SEO and images, and accounts without passwords', async () => {
      await seed();
      // Read the source first: on workerd a new harness starts from the same, emptied, D1 database.
      const read = async (a: ApiHarness, t: string) =>
        (await (await a.request(`/v1/articles/${articleId}`, { token: t })).json()).article;
      const seo = async (a: ApiHarness, t: string) =>
        await (await a.request(`/v1/articles/${articleId}/seo`, { token: t })).json();
      const original = async (a: ApiHarness) => new Uint8Array(await (await a.request(imageUrl)).arrayBuffer());
      const history = async (a: ApiHarness, t: string) => ({
        draft: (await (await a.request(`/v1/articles/${articleId}/draft`, { token: t })).json()).draft,
        revisions: (await (await a.request(`/v1/articles/${articleId}/revisions`, { token: t })).json()).items,
      });
      const before = {
        history: await history(source, owner),
        article: await read(source, owner),
        seo: await seo(source, owner),
        image: await original(source),
      };
      expect(before.image.length).toBeGreaterThan(100);
      const { api, token } = await fresh();
      const res = await importInto(api, token, archive);
      expect(res.status, await res.clone().text()).toBe(200);
      const { imported } = await res.json();
      expect(imported).toMatchObject({
        images: 2,
        accountsWithoutPassword: 1,
        rows: {
          articles: 2,
          sites: 1,
          authors: 1,
          tags: 1,
          articleTags: 1,
          articleDrafts: 1,
          articleRevisions: 1,
          redirects: 1,
        },
      });
      expect(await read(api, token)).toEqual(before.article);
      expect(before.history.draft).toMatchObject({ title: 'Moved again' });
      expect(before.history.revisions).toHaveLength(1);
      expect(await history(api, token)).toEqual(before.history);
      expect(await seo(api, token)).toEqual(before.seo);
      expect(await original(api)).toEqual(before.image);
      // The importer stays the owner; the archived admin comes without a password.
      const users = (await (await api.request('/v1/user', { token })).json()).items as {
        email: string;
        role: string;
      }[];
      expect(users.map((u) => [u.email, u.role]).sort()).toEqual([
        ['admin@example.com', 'admin'],
        ['new-owner@example.com', 'owner'],
      ]);
      const login = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'admin@example.com', password: 'a long enough password' },
      });
      expect(login.status).toBe(401);
      // Exported again, the content is the same archive (but for when and the owner's own row, and stored
      // html: a cache of the body that an import leaves to the first read to render, bounded).
      const again = records(await gunzipLines(await exportFrom(api, token)));
      const withoutHtml = (r: ReturnType<typeof records>[number]) => {
        if (r.kind !== 'row' || r.table !== 'articles') return r;
        const { html: _html, ...row } = r.row as Record<string, unknown>;
        return { ...r, row };
      };
      const content = (rs: ReturnType<typeof records>) =>
        rs.filter((r) => r.kind === 'blob' || (r.kind === 'row' && r.table !== 'users')).map(withoutHtml);
      expect(content(again)).toEqual(content(records(await gunzipLines(archive))));
    });

    it('refuses an installation that has content, and leaves it as it was', async () => {
      await seed();
      const res = await importInto(source, owner, archive);
      expect(res.status).toBe(409);
      expect((await errorOf(res)).code).toBe('conflict');
      expect((await (await source.request('/v1/articles', { token: owner })).json()).items).toHaveLength(2);
    });

    it("is the owner's alone", async () => {
      const { api, token } = await fresh();
      const admin = await inviteAdmin(api, token, 'second@example.com');
      expect((await api.request('/v1/export', { token: admin.token })).status).toBe(403);
      expect((await importInto(api, admin.token, archive)).status).toBe(403);
      expect((await api.request('/v1/export')).status).toBe(401);
    });

    it('refuses a damaged archive with 400 and leaves nothing behind: not gzip, cut short, tampered, unknown columns', async () => {
      await seed();
      const { api, token } = await fresh();
      const lines = await gunzipLines(archive);
      const tampered = lines.map((l) => {
        const r = JSON.parse(l);
        return r.kind === 'blob' ? JSON.stringify({ ...r, data: r.data.replace(/^..../, 'AAAA') }) : l;
      });
      const extraColumn = lines.map((l) => {
        const r = JSON.parse(l);
        return r.kind === 'row' && r.table === 'articles' ? JSON.stringify({ ...r, row: { ...r.row, sneaky: 1 } }) : l;
      });
      const cases: [string, Uint8Array, RegExp][] = [
        ['not gzip', new TextEncoder().encode('hello'), /gzip/],
        ['no end record', await gzipLines(lines.slice(0, -1)), /cut short/],
        ['cut mid-stream', archive.slice(0, Math.floor(archive.length * 0.8)), /gzip|cut short|JSON/],
        ['tampered image', await gzipLines(tampered), /SHA-256/],
        ['unknown column', await gzipLines(extraColumn), /articles has no column "sneaky"/],
      ];
      for (const [what, body, message] of cases) {
        const res = await importInto(api, token, body);
        expect(res.status, what).toBe(400);
        const error = await errorOf(res);
        expect(error.code, what).toBe('invalid_request');
        expect(error.message, what).toMatch(message);
        await expectNothingImported(api, token);
      }
    });
  });
}
