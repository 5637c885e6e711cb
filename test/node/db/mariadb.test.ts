import { describe, expect, it } from 'vitest';
import { mysqlHarness } from '../../support/db-node-harness.js';
import { runNodeDatabaseSuites, runUnreachableServerTest } from '../../support/db-node-suites.js';
import { runDueQueryPlanTest, runTagListQueryPlanTest } from '../../support/query-plans.js';

const suite = runNodeDatabaseSuites('MariaDB', 'mysql', mysqlHarness);

describe('MariaDB storage settings', () => {
  it('stores every text column as utf8mb4 with a binary collation', async () => {
    const columns = await suite
      .harness()
      .query(
        "SELECT table_name AS t, column_name AS c, character_set_name AS cs, collation_name AS co FROM information_schema.columns WHERE table_schema = DATABASE() AND character_set_name IS NOT NULL AND table_name <> '__drizzle_migrations'",
      );
    expect(columns.length).toBeGreaterThan(20);
    for (const column of columns)
      expect(column, `${column.t}.${column.c}`).toMatchObject({ cs: 'utf8mb4', co: 'utf8mb4_bin' });
  });

  runUnreachableServerTest('mysql://root@127.0.0.1:1/test');
});

describe('MariaDB query plans', () => {
  runTagListQueryPlanTest(() => suite.harness(), 'mysql');
  runDueQueryPlanTest(() => suite.harness(), 'mysql');
});
