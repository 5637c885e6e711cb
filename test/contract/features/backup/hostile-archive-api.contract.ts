import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../worker/src/core/shared/crypto.js';
import { errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../support/api-harness.js';
import {
  archivedArticle,
  archivedDraft,
  archivedFields,
  archivedRevision,
  archivedUser,
  type Crafted,
  craftArchive,
  craftLines,
  expectNothingImported,
  gzipLines,
  importInto,
  PNG_FILE,
} from '../../../support/archives.js';
import { newId } from '../../../support/db-contract.js';
import { GIF_1x1, gifWithFrames, HTML, JPEG_2x3, PNG_1x1, pngBomb, SCRIPT, SVG, ZIP } from '../../../support/images.js';

const PASSWORD = 'the archive knows this password';

/**
 * Archives made to harm (docs/security.md, "Imports"): an archive carries
 * content, never credentials, and no file but an allowed image. Each case
 * differs from an importable archive in exactly what it tests, is refused
 * naming its line, and leaves the installation as it was.
 */
export function runHostileArchiveApiContract(name: string, setup: SetupApi, t: ApiTarget) {
  describe(`import of crafted archives (${name})`, () => {
    const made: ApiHarness[] = [];
    afterEach(async () => {
      for (const api of made.splice(0)) await api.cleanup();
    });
    const harness = async (settings?: Record<string, string>) => {
      const api = await setup(settings);
      made.push(api);
      return api;
    };
    const fresh = async () => {
      const api = await harness();
      return { api, token: (await registerOwner(api, 'owner@example.com')).token };
    };
    /** Every case refused with `status`, its message matching, and nothing kept. */
    const expectRefused = async (
      api: ApiHarness,
      token: string,
      cases: [string, Crafted | Uint8Array, RegExp, number?][],
    ) => {
      for (const [what, crafted, message, status = 400] of cases) {
        const body = crafted instanceof Uint8Array ? crafted : await craftArchive(crafted);
        const res = await importInto(api, token, body);
        expect(res.status, what).toBe(status);
        const error = await errorOf(res);
        expect(error.code, what).toBe(status === 413 ? 'payload_too_large' : 'invalid_request');
        expect(error.message, what).toMatch(message);
        await expectNothingImported(api, token);
      }
    };
    const signIn = (api: ApiHarness, email: string) =>
      api.request('/v1/auth/login', { method: 'POST', json: { email, password: PASSWORD } });

    it('refuses credentials in user rows (a password hash, codes, a token version); the archive password never signs in', async () => {
      const { api, token } = await fresh();
      const hash = await api.deps.passwords.hash(PASSWORD);
      const planted = (over: Record<string, unknown>) => ({
        users: [archivedUser({ email: 'planted@example.com', ...over })],
      });
      await expectRefused(api, token, [
        ['password hash', planted({ passwordHash: hash }), /^Archive line 2: users\.passwordHash is never carried/],
        [
          'reset code',
          planted({ resetCodeHash: await sha256Hex('code'), resetExpiresAt: '2099-01-01T00:00:00.000Z' }),
          /line 2: users\.resetCodeHash/,
        ],
        [
          'verification code',
          planted({ verificationCodeHash: await sha256Hex('code') }),
          /line 2: users\.verificationCodeHash/,
        ],
        ['token version', planted({ tokenVersion: 7 }), /line 2: users\.tokenVersion/],
      ]);
      expect((await signIn(api, 'planted@example.com')).status).toBe(401);
      // Tables of credentials (API keys, webhooks and their secrets, invitations) are never imported.
      const lines = await craftLines({});
      const header = JSON.parse(lines[0]!);
      const row = (table: string) => JSON.stringify({ kind: 'row', table, row: { id: newId() } });
      await expectRefused(api, token, [
        [
          'an API key table',
          await gzipLines([JSON.stringify({ ...header, tables: [...header.tables, 'apiKeys'] }), ...lines.slice(1)]),
          /^Archive line 1: tables this version does not know: apiKeys/,
        ],
        [
          'a webhook row',
          await gzipLines([lines[0]!, row('webhooks'), ...lines.slice(1)]),
          /^Archive line 2: unknown table "webhooks"/,
        ],
        [
          'an invitation row',
          await gzipLines([lines[0]!, row('invitations'), ...lines.slice(1)]),
          /^Archive line 2: unknown table "invitations"/,
        ],
      ]);
      // Without the hash the account is imported, and counted, without a password.
      const res = await importInto(api, token, await craftArchive(planted({})));
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).imported.accountsWithoutPassword).toBe(1);
      expect((await signIn(api, 'planted@example.com')).status).toBe(401);
    });

    it('takes roles from the role enum only, and the owner lock only with the owner role', async () => {
      const { api, token } = await fresh();
      const role = (value: unknown) => ({ users: [archivedUser({ role: value })] });
      await expectRefused(api, token, [
        ['root', role('root'), /^Archive line 2: users\.role: one of owner, admin$/],
        ['Owner', role('Owner'), /line 2: users\.role/],
        ['owner with a space', role(' owner'), /line 2: users\.role/],
        ['empty', role(''), /line 2: users\.role/],
        ['a number', role(1), /line 2: users\.role must be string/],
        ['owner lock on an admin', { users: [archivedUser({ ownerLock: 1 })] }, /line 2: users: ownerLock/],
        ['an odd address', { users: [archivedUser({ email: 'Not An Address' })] }, /line 2: users\.email/],
        ['an id that is no UUID', { users: [archivedUser({ id: '1 OR 1=1' })] }, /line 2: users\.id/],
      ]);
    });

    it('refuses any file that is not an allowed image, whatever its row and name say, naming its line', async () => {
      const { api, token } = await fresh();
      const lines = await craftLines({ files: [PNG_FILE] });
      const blobLine = lines.findIndex((l) => l.includes('"kind":"blob"')) + 1;
      const file = (bytes: Uint8Array, contentType = 'image/png', row?: Record<string, unknown>) => ({
        files: [{ bytes, contentType, row }],
      });
      const notImage = new RegExp(
        `^Archive line ${blobLine}: originals/[0-9a-f-]+\\.png: The file is not a JPEG, PNG, WebP or GIF image$`,
      );
      await expectRefused(api, token, [
        ['HTML named .png', file(HTML), notImage],
        ['script named .png', file(SCRIPT), notImage],
        ['SVG named .png', file(SVG), notImage],
        ['ZIP named .png', file(ZIP), notImage],
        ['type text/html', file(PNG_1x1, 'text/html'), /^Archive line 3: images\.contentType: one of image\/jpeg/],
        ['type text/javascript', file(PNG_1x1, 'text/javascript'), /line 3: images\.contentType/],
        ['type image/svg+xml', file(SVG, 'image/svg+xml'), /line 3: images\.contentType/],
        ['type with parameters', file(PNG_1x1, 'image/png; charset=utf-8'), /line 3: images\.contentType/],
        [
          'a PNG called a JPEG',
          file(PNG_1x1, 'image/jpeg'),
          /originals\/.+\.jpg: the bytes are image\/png, its image says image\/jpeg/,
        ],
        ['a JPEG of another size', file(JPEG_2x3, 'image/jpeg'), /the bytes are 2×3, its image says 1×1/],
        [
          'a name of another type',
          file(PNG_1x1, 'image/png', { filename: `${newId()}.html` }),
          /line 3: images: filename must be/,
        ],
        [
          'a pixel flood',
          file(pngBomb(), 'image/png', { width: 64000, height: 64000 }),
          /line 3: images: the image has more than/,
        ],
        ['a pixel flood the row hides', file(pngBomb()), new RegExp(`line ${blobLine}: .*more than \\d+ pixels`)],
        [
          'a frame flood',
          file(gifWithFrames(1001), 'image/gif'),
          new RegExp(`line ${blobLine}: originals/.+\\.gif: .*frame`, 'i'),
        ],
      ]);
    });

    it('refuses an over-size file with 413 and a row that claims one with 400', async () => {
      const { api, token } = await fresh();
      const big = new Uint8Array(t.maxUploadBytes + 1);
      big.set(PNG_1x1);
      await expectRefused(api, token, [
        [
          'a row over MAX_UPLOAD_BYTES',
          { files: [{ ...PNG_FILE, row: { bytes: t.maxUploadBytes + 1 } }] },
          /line 3: images\.bytes/,
        ],
        [
          'a file over MAX_UPLOAD_BYTES',
          { files: [{ contentType: 'image/png', bytes: big, row: { bytes: t.maxUploadBytes } }] },
          /is larger than/,
          413,
        ],
      ]);
    });

    it('refuses references to rows it does not hold, repeated keys, odd instants, numbers, enums and text', async () => {
      const { api, token } = await fresh();
      const article = archivedArticle();
      const site = newId();
      const other = (over: Record<string, unknown>) => ({ article: archivedArticle(over) });
      await expectRefused(api, token, [
        [
          'a link to a missing image',
          { article, extra: { articleImages: [{ articleId: article.id, imageId: newId() }] } },
          /line 3: articleImages\.imageId names images/,
        ],
        [
          'an image of a missing article',
          { files: [{ ...PNG_FILE, row: { articleId: newId() } }] },
          /line 3: images\.articleId names articles/,
        ],
        ['a missing site', other({ siteId: site, slugScope: site }), /line 2: articles\.siteId names sites/],
        [
          'a repeated id',
          { article, extra: { articles: [archivedArticle({ id: article.id })] } },
          /line 3: articles: another row has the same id/,
        ],
        [
          'a repeated slug',
          { article, extra: { articles: [archivedArticle({ slug: article.slug })] } },
          /line 3: articles: another row has the same slugScope and slug/,
        ],
        [
          'an odd instant',
          other({ createdAt: 'yesterday' }),
          /line 2: articles\.createdAt must be an ISO 8601 instant/,
        ],
        ['an instant past 9999', other({ createdAt: '+010000-01-01T00:00:00.000Z' }), /line 2: articles\.createdAt/],
        ['a negative version', other({ version: -1 }), /line 2: articles\.version/],
        ['a version past 32 bits', other({ version: 2 ** 40 }), /line 2: articles\.version/],
        ['a status', other({ status: 'published' }), /line 2: articles\.status/],
        ['a format', other({ format: 'php' }), /line 2: articles\.format/],
        ['a slug scope', other({ slugScope: 'elsewhere' }), /line 2: articles: slugScope/],
        ['a NUL', other({ body: 'a\u0000b' }), /line 2: articles\.body must be text without NUL/],
        ['a long title', other({ title: 'x'.repeat(201) }), /line 2: articles\.title/],
        [
          'a javascript: canonical URL',
          other({
            seo: JSON.stringify({
              metaTitle: null,
              metaDescription: null,
              canonicalUrl: 'javascript:alert(1)',
              ogImage: null,
              noindex: false,
            }),
          }),
          /line 2: articles\.seo/,
        ],
      ]);
      // Drafts and revisions: their fields pass the API's own rules, and a revision says what it holds.
      const draft = (over: Record<string, unknown>) => ({
        article,
        extra: { articleDrafts: [archivedDraft(article, over)] },
      });
      const revision = (over: Record<string, unknown>) => ({
        article,
        extra: { articleRevisions: [archivedRevision(article, over)] },
      });
      await expectRefused(api, token, [
        [
          'a draft of a missing article',
          draft({ articleId: newId() }),
          /line 3: articleDrafts\.articleId names articles/,
        ],
        ['a draft that is not JSON', draft({ fields: '{' }), /line 3: articleDrafts\.fields/],
        ['a draft with a bad title', draft({ fields: archivedFields({ title: '' }) }), /line 3: articleDrafts\.fields/],
        [
          'a draft with more fields',
          draft({ fields: archivedFields({ status: 'online' }) }),
          /line 3: articleDrafts\.fields/,
        ],
        ['a revision by someone odd', revision({ actorType: 'root' }), /line 3: articleRevisions\.actorType/],
        ['a revision of another title', revision({ title: 'Other' }), /line 3: articleRevisions: title/],
        ['a revision that lies about its size', revision({ bytes: 1 }), /line 3: articleRevisions: bytes/],
      ]);
      // The archive is checked before the rows are read at all: a second header is refused too.
      const lines = await craftLines({});
      await expectRefused(api, token, [
        ['a second header', await gzipLines([lines[0]!, ...lines]), /line 2: a second header/],
      ]);
    });

    it('imports an allowed image with the type of its bytes, and renders html from the body, never as given', async () => {
      const { api, token } = await fresh();
      const article = archivedArticle({ body: 'hello *there*', html: '<script>alert(1)</script>' });
      const res = await importInto(
        api,
        token,
        await craftArchive({ article, files: [PNG_FILE, { contentType: 'image/gif', bytes: GIF_1x1 }] }),
      );
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).imported).toMatchObject({ images: 2, accountsWithoutPassword: 0 });
      const html = (await (await api.request(`/v1/articles/${article.id}`, { token })).json()).article.html as string;
      expect(html).toContain('<em>there</em>');
      expect(html).not.toContain('<script');
      const media = (await (await api.request('/v1/media', { token })).json()).items as {
        url: string;
        contentType: string;
      }[];
      expect(media.map((m) => m.contentType).sort()).toEqual(['image/gif', 'image/png']);
      for (const m of media) {
        const served = await api.request(new URL(m.url, 'http://cms.test').pathname);
        expect(served.headers.get('content-type')).toBe(m.contentType);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    it("keeps a large article within the database's row limit: its html left to be rendered, or 413 where even the body has no room", async () => {
      // Lines up to about 4 MB: room for an article larger than D1 keeps in a row (about 2 MB).
      // Render limits raised too: this body is rendered on its first read, bounded as a write is.
      const api = await harness({ MAX_UPLOAD_BYTES: String(3_000_000), MAX_RENDER_BYTES: String(3_000_000) });
      const { token, id } = await registerOwner(api, 'owner@example.com');
      const body = 'word '.repeat(240_000); // 1.2 MB: with its html, more than D1's row
      const article = archivedArticle({ format: 'plaintext', body, html: 'stale' });
      const res = await importInto(api, token, await craftArchive({ article }));
      expect(res.status, await res.clone().text()).toBe(200);
      const read = (await (await api.request(`/v1/articles/${article.id}`, { token })).json()).article;
      expect(read.body).toBe(body);
      // Rendered on this first read; D1's row has no room for it beside the body, so there it stays empty.
      if (t.target === 'workers') expect(read.html).toBe('');
      else expect(read.html).toContain('word word');
      await api.deps.repos.backup.clear([id]);
      const huge = archivedArticle({ body: 'x'.repeat(2_100_000) });
      const again = await importInto(api, token, await craftArchive({ article: huge }));
      if (t.target === 'workers') {
        expect(again.status).toBe(413);
        expect((await errorOf(again)).code).toBe('payload_too_large');
        await expectNothingImported(api, token);
      } else expect(again.status).toBe(200);
    });
  });
}
