import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteKit } from '../../../worker/src/adapters/db/sqlite/better-sqlite3.kit.js';
import { REPO_ROOT } from '../../support/paths.js';

const MIGRATIONS = path.join(REPO_ROOT, 'drizzle', 'sqlite', 'migrations');

/**
 * A second process starting while another holds the file (its migration, or
 * turning a new file to WAL) waits for it instead of failing: here the other
 * holder keeps an exclusive lock for longer than one busy_timeout (5 s).
 */
describe('SQLite start-up beside another holder of the file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cms-sqlite-wait-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('waits out an exclusive lock held past busy_timeout, then migrates', async () => {
    const file = path.join(dir, 'held.db');
    const holder = new Database(file);
    holder.exec('BEGIN EXCLUSIVE');
    holder.exec('CREATE TABLE held (x)');
    let settled = false;
    const opening = openSqliteKit(file, MIGRATIONS).finally(() => {
      settled = true;
    });
    // Longer than the request-time busy_timeout (5 s): a single wait inside SQLite would have failed by then.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(settled).toBe(false);
    holder.exec('COMMIT');
    holder.close();
    const { close } = await opening;
    await close();
    const check = new Database(file, { readonly: true });
    try {
      expect(check.prepare('SELECT COUNT(*) FROM "__drizzle_migrations"').pluck().get()).toBeGreaterThan(0);
      expect(check.prepare('SELECT COUNT(*) FROM held').pluck().get()).toBe(0);
    } finally {
      check.close();
    }
  }, 30_000);
});
