import { createCatalogRows } from '../../adapters/db/shared/catalog-rows.js';
import { guarded, refuseNul } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { SitesRepository } from './sites.port.js';

const inUse = () =>
  new DomainError('conflict', 'This site cannot be deleted: articles use it (move or delete those articles first)');

export function createSitesRepository(kit: SqlKit): SitesRepository {
  // articles.site_id has no ON DELETE action: the database refuses while any
  // article names the site, so a racing article insert cannot orphan.
  const rows = createCatalogRows(kit, { table: kit.tables.sites, inUse });

  const repo: SitesRepository = {
    findById: rows.findById,
    list: rows.list,
    delete: rows.delete,

    async create(site) {
      refuseNul({
        name: site.name,
        baseUrl: site.baseUrl,
        description: site.description,
        urlPattern: site.urlPattern,
        previewUrl: site.previewUrl,
      });
      await rows.create(site);
    },

    async update(id, patch, now) {
      refuseNul({ name: patch.name, baseUrl: patch.baseUrl, description: patch.description });
      const { name, baseUrl, description, urlPattern, previewUrl } = patch;
      return rows.update(id, { name, baseUrl, description, urlPattern, previewUrl }, now);
    },
  };
  return guarded(kit, repo);
}
