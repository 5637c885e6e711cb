import { sql } from 'drizzle-orm';
import type {
  IdempotencyKeysRepository,
  LeasesRepository,
  ReadGeneration,
  SystemStateRepository,
} from '../../../ports/repositories.js';
import { createIdempotencyKeysRepository } from './idempotency-keys.repository.js';
import { createLeasesRepository } from './leases.repository.js';
import { createReadGeneration } from './read-generation.repository.js';
import { unavailable } from './repository-support.js';
import { withDeadline } from './request-deadline.js';
import type { SqlKit } from './sql-kit.js';
import { createSystemStateRepository } from './system-state.repository.js';

/**
 * The platform's own repositories, for any dialect's kit; each feature adds
 * its own (app/services.ts puts them together).
 */
export function createPlatformRepositories(kit: SqlKit): {
  idempotencyKeys: IdempotencyKeysRepository;
  leases: LeasesRepository;
  systemState: SystemStateRepository;
  readGeneration: ReadGeneration;
  ping(): Promise<void>;
} {
  return {
    idempotencyKeys: createIdempotencyKeysRepository(kit),
    leases: createLeasesRepository(kit),
    systemState: createSystemStateRepository(kit),
    readGeneration: createReadGeneration(kit),
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
