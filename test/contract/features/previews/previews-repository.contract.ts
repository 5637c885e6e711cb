import { describe, expect, it } from 'vitest';
import type { PreviewToken } from '../../../../worker/src/features/previews/previews.port.js';
import {
  domainError,
  freshRepositories,
  newId,
  type SetupRepositories,
  sampleArticle,
} from '../../../support/db-contract.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const HOUR = 3_600_000;

const sampleToken = (articleId: string, overrides: Partial<PreviewToken> = {}): PreviewToken => ({
  id: newId(),
  articleId,
  tokenHash: (newId().replace(/-/g, '') + newId().replace(/-/g, '')).slice(0, 64),
  expiresAt: new Date(NOW.getTime() + HOUR),
  createdAt: NOW,
  ...overrides,
});

/** Preview links, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runPreviewTokensRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`PreviewTokensRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    async function article(): Promise<string> {
      const input = sampleArticle();
      await db.repos.articles.create(input);
      return input.id;
    }

    it('stores links by hash, finds them only by an exact hash, and refuses an unknown article', async () => {
      const id = await article();
      const token = sampleToken(id);
      await db.repos.previewTokens.create(token);
      expect(await db.repos.previewTokens.findByHash(token.tokenHash)).toEqual(token);
      expect(await db.repos.previewTokens.findByHash(token.tokenHash.toUpperCase())).toBeNull();
      // One hex digit changed (never the same digit: a fixed replacement matched by chance one time in 16).
      const last = token.tokenHash.endsWith('0') ? '1' : '0';
      expect(await db.repos.previewTokens.findByHash(`${token.tokenHash.slice(0, 63)}${last}`)).toBeNull();
      expect(await db.repos.previewTokens.findByHash("' or 1=1 --")).toBeNull();
      await expect(db.repos.previewTokens.create(sampleToken(newId()))).rejects.toMatchObject(domainError('not_found'));
      await expect(db.repos.previewTokens.create({ ...sampleToken(id), tokenHash: token.tokenHash })).rejects.toThrow();
    });

    it('revokes every link of one article, and deleting the article takes its links along', async () => {
      const a = await article();
      const b = await article();
      const [a1, a2, b1] = [sampleToken(a), sampleToken(a), sampleToken(b)];
      for (const t of [a1, a2, b1]) await db.repos.previewTokens.create(t);
      expect(await db.repos.previewTokens.revokeAll(a)).toBe(2);
      expect(await db.repos.previewTokens.findByHash(a1.tokenHash)).toBeNull();
      expect(await db.repos.previewTokens.findByHash(a2.tokenHash)).toBeNull();
      expect(await db.repos.previewTokens.findByHash(b1.tokenHash)).toEqual(b1);
      expect(await db.repos.previewTokens.revokeAll(newId())).toBe(0);
      expect(await db.repos.articles.delete(b)).toEqual([]);
      expect(await db.repos.previewTokens.findByHash(b1.tokenHash)).toBeNull();
    });

    it('prunes expired links only, a bounded number at a time', async () => {
      const id = await article();
      const old = [1, 2, 3].map((h) => sampleToken(id, { expiresAt: new Date(NOW.getTime() - h * HOUR) }));
      const live = sampleToken(id);
      for (const t of [...old, live]) await db.repos.previewTokens.create(t);
      expect(await db.repos.previewTokens.pruneExpired(NOW, 2)).toBe(2);
      expect(await db.repos.previewTokens.pruneExpired(NOW, 10)).toBe(1);
      expect(await db.repos.previewTokens.pruneExpired(NOW, 10)).toBe(0);
      expect(await db.repos.previewTokens.findByHash(live.tokenHash)).toEqual(live);
    });
  });
}
