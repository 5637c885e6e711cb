import { describe, expect, it } from 'vitest';
import { sqliteHarness } from '../../support/db-node-harness.js';
import { runNodeDatabaseSuites } from '../../support/db-node-suites.js';
import { runDueQueryPlanTest, runSlugQueryPlanTest, runTagListQueryPlanTest } from '../../support/query-plans.js';

const suite = runNodeDatabaseSuites('Node SQLite', 'sqlite', sqliteHarness);

describe('Node SQLite file settings', () => {
  it('uses WAL and has the tables of the migrations', async () => {
    const harness = suite.harness();
    expect(await harness.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    const tables = await harness.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'article_authors',
        'articles',
        'authors',
        'images',
        'invitations',
        'rate_limits',
        'sites',
        'users',
      ]),
    );
  });
});

describe('Node SQLite query plans', () => {
  runSlugQueryPlanTest(() => suite.harness(), 'sqlite');
  runTagListQueryPlanTest(() => suite.harness(), 'sqlite');
  runDueQueryPlanTest(() => suite.harness(), 'sqlite');
});
