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
 * holder keeps an exclusive lock until a try has failed on it.
 */
describe('SQLite start-up beside another holder of the file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cms-sqlite-wait-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('tries again after a try failed on an exclusive lock, then migrates', async () => {
    const file = path.join(dir, 'held.db');
    const holder = new Database(file);
    holder.exec('BEGIN EXCLUSIVE');
    holder.exec('CREATE TABLE held (x)');
    // Released once a try has failed on the lock: without the retries that failure ends the start.
    let busyTries = 0;
    let released = false;
    const opening = openSqliteKit(file, MIGRATIONS, (attempt) => {
      busyTries = attempt;
      if (released) return;
      released = true;
      holder.exec('COMMIT');
      holder.close();
    });
    const { close } = await opening;
    await close();
    expect(busyTries).toBeGreaterThan(0);
    const check = new Database(file, { readonly: true });
    try {
      expect(check.prepare('SELECT COUNT(*) FROM "__drizzle_migrations"').pluck().get()).toBeGreaterThan(0);
      expect(check.prepare('SELECT COUNT(*) FROM held').pluck().get()).toBe(0);
    } finally {
      check.close();
    }
  });
});
