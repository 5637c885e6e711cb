import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createD1ActivityLog, createD1Kit } from '../../worker/src/adapters/db/sqlite/d1.js';
import { buildRepositories } from '../../worker/src/app/services.js';
import { runActivityLogContract } from '../contract/activity-log.contract.js';
import type { DbFixtures, SetupRepositories } from '../support/db-contract.js';
import { runRepositoryContracts } from '../support/repository-suites.js';
import { TABLES_CHILD_FIRST } from '../support/tables.js';

// The setup file has applied drizzle/sqlite/migrations through applyD1Migrations,
// exactly as `wrangler d1 migrations apply` would.
const now = Date.now();

const fixtures: DbFixtures = {
  async insertSite(id) {
    await env.DB.prepare(
      `INSERT INTO sites (id, name, base_url, description, created_at, updated_at) VALUES (?, 'Site', 'https://example.com', NULL, ?, ?)`,
    )
      .bind(id, now, now)
      .run();
  },
  async insertAuthor(id) {
    await env.DB.prepare(
      `INSERT INTO authors (id, name, slug, bio, avatar_url, created_at, updated_at) VALUES (?, 'Author', ?, NULL, NULL, ?, ?)`,
    )
      .bind(id, `author-${id}`, now, now)
      .run();
  },
};

const repos = buildRepositories(createD1Kit(env.DB));
const setup: SetupRepositories = async () => {
  await env.DB.batch(TABLES_CHILD_FIRST.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
  return { repos, fixtures, cleanup: async () => undefined };
};

runRepositoryContracts('D1 (workerd, env.DB)', setup);
runActivityLogContract('D1 (workerd, env.DB)', async (maxBytes) => {
  await env.DB.batch(TABLES_CHILD_FIRST.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
  return { store: createD1ActivityLog(env.DB, maxBytes), cleanup: async () => undefined };
});

describe('D1 specifics', () => {
  it('enforces foreign keys', async () => {
    const result = await env.DB.prepare('PRAGMA foreign_keys').first<{ foreign_keys: number }>();
    expect(result?.foreign_keys).toBe(1);
  });

  it('reads D1 failures as the kit classifies them', () => {
    const kit = createD1Kit(env.DB);
    const wrap = (message: string) => Object.assign(new Error('Failed query'), { cause: new Error(message) });
    expect(kit.isUniqueViolation(wrap('D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT'))).toBe(
      true,
    );
    expect(kit.isForeignKeyViolation(wrap('D1_ERROR: FOREIGN KEY constraint failed: SQLITE_CONSTRAINT'))).toBe(true);
    expect(kit.isConnectionError(wrap('D1_ERROR: Network connection lost.'))).toBe(true);
    expect(kit.isConnectionError(wrap('D1_ERROR: no such table: nope: SQLITE_ERROR'))).toBe(false);
  });

  it('turns a failing binding into unavailable', async () => {
    // Preparing is local; the failure arrives when a statement runs.
    const fail = () => Promise.reject(new Error('D1_ERROR: Network connection lost.'));
    const statement = { bind: () => statement, all: fail, run: fail, first: fail, raw: fail };
    const broken = new Proxy(env.DB, {
      get(target, property) {
        if (property === 'prepare') return () => statement;
        if (property === 'batch') return fail;
        return Reflect.get(target, property);
      },
    });
    const repos = buildRepositories(createD1Kit(broken));
    await expect(repos.users.findByEmail('a@example.com')).rejects.toMatchObject({ code: 'unavailable' });
    await expect(repos.users.findById('01a214e9-78c2-76e2-b443-638661a1de3f')).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(repos.articles.delete('01a214e9-78c2-76e2-b443-638661a1de3f')).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(repos.ping()).rejects.toMatchObject({ code: 'unavailable' });
  });
});
