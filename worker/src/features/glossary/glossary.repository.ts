import { createCatalogRows } from '../../adapters/db/shared/catalog-rows.js';
import { guarded, refuseNul } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { GlossaryRepository } from './glossary.port.js';

const slugTaken = () =>
  new DomainError('conflict', 'Another term already has this slug', [
    { path: 'slug', message: 'slug is already in use' },
  ]);

export function createGlossaryRepository(kit: SqlKit): GlossaryRepository {
  const { glossaryTerms } = kit.tables;
  const rows = createCatalogRows(kit, { table: glossaryTerms, uniqueConflict: slugTaken });

  const repo: GlossaryRepository = {
    findById: rows.findById,
    findBySlug: (slug) => rows.findByUnique(glossaryTerms.slug, slug),
    list: rows.list,
    delete: rows.delete,

    async create(term) {
      refuseNul({ name: term.name, slug: term.slug, definition: term.definition });
      await rows.create(term);
    },

    async update(id, patch, now) {
      refuseNul({ name: patch.name, slug: patch.slug, definition: patch.definition });
      return rows.update(id, { name: patch.name, slug: patch.slug, definition: patch.definition }, now);
    },
  };
  return guarded(kit, repo);
}
