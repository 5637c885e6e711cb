import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadGeneration } from '../../../worker/src/adapters/db/shared/read-generation.repository.js';
import type { SqlKit } from '../../../worker/src/adapters/db/shared/sql-kit.js';
import { openSqliteKit } from '../../../worker/src/adapters/db/sqlite/better-sqlite3.kit.js';
import { createUsersRepository } from '../../../worker/src/features/accounts/users.repository.js';
import { createArticlesRepository } from '../../../worker/src/features/articles/articles.repository.js';
import { createImagesRepository } from '../../../worker/src/features/media/images.repository.js';
import { MIGRATIONS_ROOT } from '../../support/db-node-harness.js';

/**
 * The statements behind every uncached read by a unique key carry no LIMIT:
 * drizzle writes `.limit(1)` as a bound `limit ?`, and the SQLite that
 * better-sqlite3 ships re-prepares a statement whose LIMIT is bound on
 * every run (about 26 µs of a 36 µs read; docs/benchmarks.md). The answer
 * is the same with or without it, so only this test notices one coming back.
 */
describe('prepared reads by a unique key', () => {
  it('are prepared without a LIMIT', async () => {
    const { kit, close } = await openSqliteKit(':memory:', path.join(MIGRATIONS_ROOT, 'sqlite', 'migrations'));
    try {
      const statements = new Map<string, string>();
      const recording: SqlKit = {
        ...kit,
        prepare(query, name) {
          statements.set(name, (query as unknown as { toSQL(): { sql: string } }).toSQL().sql);
          return kit.prepare(query, name);
        },
      };
      createArticlesRepository(recording);
      createImagesRepository(recording);
      createUsersRepository(recording);
      createReadGeneration(recording);
      for (const name of ['articles_by_id_with_links', 'images_by_filename', 'users_by_id', 'read_generation']) {
        const text = statements.get(name);
        expect(text, `${name} is prepared when its repository is made`).toBeDefined();
        expect(text, name).not.toMatch(/\blimit\b/i);
      }
    } finally {
      await close();
    }
  });
});
