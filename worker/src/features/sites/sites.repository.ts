import { desc, eq, lt } from 'drizzle-orm';
import {
  guarded,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Site, SitesRepository } from './sites.port.js';

type SiteRow = SqlKit['tables']['sites']['$inferSelect'];

const toSite = (row: SiteRow): Site => ({
  id: row.id,
  name: row.name,
  baseUrl: row.baseUrl,
  description: row.description,
  urlPattern: row.urlPattern,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const inUse = () =>
  new DomainError('conflict', 'This site cannot be deleted: articles use it (move or delete those articles first)');

export function createSitesRepository(kit: SqlKit): SitesRepository {
  const { db } = kit;
  const { sites } = kit.tables;

  async function findById(id: string): Promise<Site | null> {
    const key = normalizeId(id);
    if (key === null) return null;
    const [row] = await db.select().from(sites).where(eq(sites.id, key)).limit(1);
    return row ? toSite(row) : null;
  }

  const repo: SitesRepository = {
    findById,

    async create(site) {
      const id = requireId(site.id, 'id');
      refuseNul({ name: site.name, baseUrl: site.baseUrl, description: site.description, urlPattern: site.urlPattern });
      await db.insert(sites).values({ ...site, id });
    },

    async list({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(sites)
        .where(beforeId === undefined ? undefined : lt(sites.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(sites.id))
        .limit(requireLimit(limit));
      return rows.map(toSite);
    },

    async update(id, patch, now) {
      const key = normalizeId(id);
      if (key === null) return null;
      refuseNul({ name: patch.name, baseUrl: patch.baseUrl, description: patch.description });
      const set: Partial<SiteRow> = { updatedAt: now };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.baseUrl !== undefined) set.baseUrl = patch.baseUrl;
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.urlPattern !== undefined) set.urlPattern = patch.urlPattern;
      const result = await db.update(sites).set(set).where(eq(sites.id, key));
      if (kit.affectedRows(result) === 0) return null;
      return findById(key);
    },

    async delete(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      try {
        // articles.site_id has no ON DELETE action: the database refuses while
        // any article names the site, so a racing article insert cannot orphan.
        return kit.affectedRows(await db.delete(sites).where(eq(sites.id, key))) > 0;
      } catch (err) {
        if (kit.isForeignKeyViolation(err)) throw inUse();
        throw err;
      }
    },
  };
  return guarded(kit, repo);
}
