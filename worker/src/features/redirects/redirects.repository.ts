import { createCatalogRows } from '../../adapters/db/shared/catalog-rows.js';
import { guarded, refuseNul } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import { redirectKey } from './redirect-key.js';
import type { Redirect, RedirectsRepository } from './redirects.port.js';

const fromTaken = () =>
  new DomainError('conflict', 'Another redirect already has this from', [
    { path: 'from', message: 'from is already in use' },
  ]);

/** The row without its key: what the port's entity is. */
const toRedirect = ({ fromHash: _key, ...redirect }: SqlKit['tables']['redirects']['$inferSelect']): Redirect =>
  redirect;

export function createRedirectsRepository(kit: SqlKit): RedirectsRepository {
  const { redirects } = kit.tables;
  // `from` is unique through its hash (redirect-key.ts), written beside it on every write that sets it.
  const rows = createCatalogRows(kit, { table: redirects, toEntity: toRedirect, uniqueConflict: fromTaken });

  const repo: RedirectsRepository = {
    findById: rows.findById,
    list: rows.list,
    delete: rows.delete,

    async findByFrom(from) {
      const found = await rows.findByUnique(redirects.fromHash, await redirectKey(from));
      // The hash names the path; the comparison makes sure of it.
      return found?.from === from ? found : null;
    },

    async create(redirect) {
      refuseNul({ from: redirect.from, to: redirect.to });
      await rows.create({ ...redirect, fromHash: await redirectKey(redirect.from) });
    },

    async update(id, patch, now, read) {
      refuseNul({ from: patch.from, to: patch.to });
      const fromHash = patch.from === undefined ? undefined : await redirectKey(patch.from);
      return rows.update(
        id,
        { from: patch.from, fromHash, to: patch.to, status: patch.status },
        now,
        read && { from: read.from, to: read.to },
      );
    },
  };
  return guarded(kit, repo);
}
