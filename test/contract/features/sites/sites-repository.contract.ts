import { describe, expect, it } from 'vitest';
import type { Site } from '../../../../worker/src/features/sites/sites.port.js';
import {
  domainError,
  expectKeysetPages,
  freshRepositories,
  HOSTILE_STRINGS,
  newId,
  type SetupRepositories,
  sampleArticle,
} from '../../../support/db-contract.js';

const CREATED = new Date('2026-11-26T09:00:00.123Z');
const LATER = new Date('2026-11-26T10:30:00.456Z');

export function sampleSite(overrides: Partial<Site> = {}): Site {
  return {
    id: newId(),
    name: 'A site',
    baseUrl: 'https://example.com/blog',
    description: 'Where the articles go',
    urlPattern: '/posts/{slug}',
    previewUrl: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

/** SitesRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runSitesRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`SitesRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    it('creates a site and reads every field back unchanged; unknown and malformed ids find nothing', async () => {
      const input = sampleSite({ name: HOSTILE_STRINGS[0]!, description: HOSTILE_STRINGS[3]! });
      await db.repos.sites.create(input);
      expect(await db.repos.sites.findById(input.id)).toEqual(input);
      expect(await db.repos.sites.findById(input.id.toUpperCase())).toEqual(input);
      const bare = sampleSite({ description: null });
      await db.repos.sites.create(bare);
      expect(await db.repos.sites.findById(bare.id)).toEqual(bare);
      expect(await db.repos.sites.findById(newId())).toBeNull();
      expect(await db.repos.sites.findById("' or 1=1 --")).toBeNull();
    });

    it('refuses NUL characters and malformed ids on create', async () => {
      await expect(db.repos.sites.create(sampleSite({ name: 'a\u0000b' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      await expect(db.repos.sites.create(sampleSite({ id: 'nope' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      expect(await db.repos.sites.list({ limit: 10 })).toEqual([]);
    });

    it('lists newest first, keyset paged', async () => {
      await expectKeysetPages(db.repos.sites, (id) => sampleSite({ id }));
    });

    it('updates only the given fields and bumps updatedAt; unknown ids give null', async () => {
      const site = sampleSite();
      await db.repos.sites.create(site);
      const updated = await db.repos.sites.update(
        site.id,
        { description: null, name: 'Renamed', urlPattern: null },
        LATER,
      );
      expect(updated).toEqual({ ...site, name: 'Renamed', description: null, urlPattern: null, updatedAt: LATER });
      expect(await db.repos.sites.findById(site.id)).toEqual(updated);
      const moved = await db.repos.sites.update(site.id, { baseUrl: 'http://other.example/' }, LATER);
      expect(moved).toEqual({ ...updated, baseUrl: 'http://other.example/' });
      expect(await db.repos.sites.update(newId(), { name: 'x' }, LATER)).toBeNull();
      expect(await db.repos.sites.update('malformed', { name: 'x' }, LATER)).toBeNull();
    });

    it('deletes an unused site once; unknown and malformed ids give false', async () => {
      const site = sampleSite();
      await db.repos.sites.create(site);
      expect(await db.repos.sites.delete(site.id)).toBe(true);
      expect(await db.repos.sites.findById(site.id)).toBeNull();
      expect(await db.repos.sites.delete(site.id)).toBe(false);
      expect(await db.repos.sites.delete('malformed')).toBe(false);
    });

    it('refuses to delete a site that an article uses (conflict), leaving both intact', async () => {
      const site = sampleSite();
      await db.repos.sites.create(site);
      const article = sampleArticle({ siteId: site.id });
      await db.repos.articles.create(article);
      const refusal = db.repos.sites.delete(site.id);
      await expect(refusal).rejects.toMatchObject(domainError('conflict'));
      await expect(refusal).rejects.toThrow(/articles use it/);
      expect(await db.repos.sites.findById(site.id)).toEqual(site);
      expect((await db.repos.articles.findById(article.id))?.siteId).toBe(site.id);
      // Once the article moves away, the site can go.
      await db.repos.articles.update(article.id, { siteId: null }, LATER);
      expect(await db.repos.sites.delete(site.id)).toBe(true);
    });
  });
}
