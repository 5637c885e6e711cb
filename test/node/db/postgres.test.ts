import { describe, expect, it } from 'vitest';
import { postgresHarness } from '../../support/db-node-harness.js';
import { runNodeDatabaseSuites, runUnreachableServerTest } from '../../support/db-node-suites.js';

const suite = runNodeDatabaseSuites('PostgreSQL', 'postgres', postgresHarness);

describe('PostgreSQL storage settings', () => {
  it('keeps the tables and the migration journal inside the private schema', async () => {
    const rows = await suite
      .harness()
      .query('SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name');
    expect(rows.map((r) => r.table_name)).toEqual([
      '__drizzle_migrations',
      'article_authors',
      'article_images',
      'articles',
      'authors',
      'images',
      'invitations',
      'leases',
      'purge_runs',
      'purge_settings',
      'rate_limits',
      'sites',
      'users',
    ]);
  });

  runUnreachableServerTest('postgres://postgres@127.0.0.1:1/test');
});
