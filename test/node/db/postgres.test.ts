import { describe, expect, it } from 'vitest';
import { postgresHarness } from '../../support/db-node-harness.js';
import { runNodeDatabaseSuites, runUnreachableServerTest } from '../../support/db-node-suites.js';
import { runDueQueryPlanTest, runSlugQueryPlanTest, runTagListQueryPlanTest } from '../../support/query-plans.js';
import { TABLES_CHILD_FIRST } from '../../support/tables.js';

const suite = runNodeDatabaseSuites('PostgreSQL', 'postgres', postgresHarness);

describe('PostgreSQL storage settings', () => {
  it('keeps the tables and the migration journal inside the private schema', async () => {
    const rows = await suite
      .harness()
      .query(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name',
      );
    // Every table of the schema, and nothing in the public schema.
    expect(rows.map((r) => r.table_name)).toEqual(['__drizzle_migrations', ...TABLES_CHILD_FIRST].sort());
  });

  runUnreachableServerTest('postgres://postgres@127.0.0.1:1/test');
});

describe('PostgreSQL query plans', () => {
  runSlugQueryPlanTest(() => suite.harness(), 'postgres');
  runTagListQueryPlanTest(() => suite.harness(), 'postgres');
  runDueQueryPlanTest(() => suite.harness(), 'postgres');
});
