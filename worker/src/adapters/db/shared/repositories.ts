import { sql } from 'drizzle-orm';
import type { Repositories } from '../../../ports/repositories.js';
import { createApiKeysRepository } from './api-keys.repository.js';
import { createArticlesRepository } from './articles.repository.js';
import { createAuthorsRepository } from './authors.repository.js';
import { createImagesRepository } from './images.repository.js';
import { createInvitationsRepository } from './invitations.repository.js';
import { createLeasesRepository } from './leases.repository.js';
import { createPurgeRepository } from './purge.repository.js';
import { unavailable, withDeadline } from './repository-support.js';
import { createSitesRepository } from './sites.repository.js';
import type { SqlKit } from './sql-kit.js';
import { createSystemStateRepository } from './system-state.repository.js';
import { createUsersRepository } from './users.repository.js';

/** The one implementation of the persistence ports, for any dialect's kit. */
export function createRepositories(kit: SqlKit): Repositories {
  return {
    users: createUsersRepository(kit),
    articles: createArticlesRepository(kit),
    sites: createSitesRepository(kit),
    authors: createAuthorsRepository(kit),
    images: createImagesRepository(kit),
    invitations: createInvitationsRepository(kit),
    purge: createPurgeRepository(kit),
    leases: createLeasesRepository(kit),
    apiKeys: createApiKeysRepository(kit),
    systemState: createSystemStateRepository(kit),
    async ping() {
      try {
        await withDeadline(kit.timeoutMs, async () => {
          await kit.db.select({ one: sql<number>`1` }).from(kit.tables.users).limit(1);
        });
      } catch (err) {
        // Readiness: whatever the failure (network, missing table, full disk),
        // the database is not answering the way the service needs.
        throw unavailable(err);
      }
    },
  };
}
