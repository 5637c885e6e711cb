import { sql } from 'drizzle-orm';
import { createInvitationsRepository } from '../../../features/accounts/invitations.repository.js';
import { createUsersRepository } from '../../../features/accounts/users.repository.js';
import { createApiKeysRepository } from '../../../features/api-keys/api-keys.repository.js';
import { createArticlesRepository } from '../../../features/articles/articles.repository.js';
import { createAuthorsRepository } from '../../../features/authors/authors.repository.js';
import { createImagesRepository } from '../../../features/media/images.repository.js';
import { createPurgeRepository } from '../../../features/purge/purge.repository.js';
import { createSitesRepository } from '../../../features/sites/sites.repository.js';
import type { Repositories } from '../../../ports/repositories.js';
import { createLeasesRepository } from './leases.repository.js';
import { unavailable, withDeadline } from './repository-support.js';
import type { SqlKit } from './sql-kit.js';
import { createSystemStateRepository } from './system-state.repository.js';

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
