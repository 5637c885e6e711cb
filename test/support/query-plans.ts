import { Placeholder } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openNodeDatabase } from '../../worker/src/adapters/db/node-database.js';
import type { SqlKit } from '../../worker/src/adapters/db/shared/sql-kit.js';
import { createArticlesRepository } from '../../worker/src/features/articles/articles.repository.js';
import { MIGRATIONS_ROOT, type NodeDbHarness } from './db-node-harness.js';

/** The statements a repository prepares, by name, as their text and parameters (placeholders by name). */
function recordingKit(kit: SqlKit) {
  const statements = new Map<string, { sql: string; params: unknown[] }>();
  const recording: SqlKit = {
    ...kit,
    prepare(query, name) {
      statements.set(name, (query as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL());
      return kit.prepare(query, name);
    },
  };
  return { recording, statements };
}

/** Rows enough that a planner which can walk the table would: 2,000 articles, half online, some in three sites. */
const SEED_ROWS = 2000;
// Article i: slug `slug-i`, online when even, every tenth in one of the sites (ids ending a, b, c).
const SITE_OF = (i: string) =>
  `case when ${i} % 10 = 0 then '0190a000-0000-7000-8000-00000000000' || substr('abc', ${i} % 3 + 1, 1) end`;
const SQLITE_SEED = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
  INSERT INTO articles (id, title, body, format, status, site_id, created_at, updated_at, slug, slug_scope)
  SELECT printf('0190a001-0000-7000-8000-%012d', i), 'Title ' || i, 'body', 'markdown',
    CASE WHEN i % 2 = 0 THEN 'online' ELSE 'offline' END, ${SITE_OF('i')}, 1764000000000, 1764000000000,
    'slug-' || i, coalesce(${SITE_OF('i')}, '')
  FROM n RETURNING id`;
const POSTGRES_SEED = `INSERT INTO articles (id, title, body, format, status, site_id, created_at, updated_at, slug, slug_scope)
  SELECT ('0190a001-0000-7000-8000-' || lpad(i::text, 12, '0'))::uuid, 'Title ' || i, 'body', 'markdown',
    CASE WHEN i % 2 = 0 THEN 'online' ELSE 'offline' END, (${SITE_OF('i')})::uuid, now(), now(),
    'slug-' || i, coalesce(${SITE_OF('i')}, '')
  FROM generate_series(1, $1::int) AS i`;

/**
 * Lookups by slug must go through a slug index (the `(slug_scope, slug)`
 * unique one in a site, `articles_slug_idx` in any site): the read by slug
 * in a site, in any site, and the list's `?slug=` beside
 * other filters (whose own indexes would otherwise win and walk every
 * online article). The test prepares the repository's own statements,
 * fills the table, and reads each statement's plan.
 */
export function runSlugQueryPlanTest(harness: () => NodeDbHarness, dialect: 'sqlite' | 'postgres'): void {
  it('reads by slug through a slug index, never a walk of the articles', async () => {
    const h = harness();
    await h.wipe();
    const db = await openNodeDatabase(h.url, { migrationsRoot: MIGRATIONS_ROOT });
    try {
      const { recording, statements } = recordingKit(db.kit);
      const repo = createArticlesRepository(recording);
      const siteIds = [
        '0190a000-0000-7000-8000-00000000000a',
        '0190a000-0000-7000-8000-00000000000b',
        '0190a000-0000-7000-8000-00000000000c',
      ];
      for (const id of siteIds) await h.fixtures.insertSite(id);
      await h.query(dialect === 'sqlite' ? SQLITE_SEED : POSTGRES_SEED, [SEED_ROWS]);
      if (dialect === 'postgres') await h.query('ANALYZE articles, sites');
      // Run once each, so the list prepares its statement for this filter combination.
      await repo.list({ slug: 'slug-7', status: 'online', limit: 21 });
      await repo.list({ slug: 'slug-7', siteId: siteIds[0]!, status: 'online', limit: 21 });
      const values: Record<string, unknown> = {
        slug: 'slug-7',
        scope: siteIds[0],
        siteId: siteIds[0],
        status: 'online',
        limit: 21,
      };
      const listNames = [...statements.keys()].filter((n) => n.startsWith('articles_list_'));
      expect(listNames).toHaveLength(2);
      for (const name of ['articles_by_slug_with_links', 'articles_by_slug_in_scope_with_links', ...listNames]) {
        const statement = statements.get(name);
        expect(statement, name).toBeDefined();
        const params = statement!.params.map((p) => (p instanceof Placeholder ? values[p.name] : p));
        if (dialect === 'sqlite') {
          const rows = await h.query(`EXPLAIN QUERY PLAN ${statement!.sql}`, params);
          const plan = rows.map((r) => r.detail).join('; ');
          expect(plan, name).toMatch(
            /SEARCH articles USING INDEX (articles_slug_scope_slug_unique \(slug_scope=\? AND slug=\?\)|articles_slug_idx \(slug=\?\))/,
          );
          expect(plan, name).not.toMatch(/SCAN articles/);
        } else {
          const rows = await h.query(`EXPLAIN ${statement!.sql}`, params);
          const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
          expect(plan, name).toMatch(
            /Index (Only )?Scan using (articles_slug_scope_slug_unique|articles_slug_idx) on articles/,
          );
          expect(plan, name).not.toMatch(/Seq Scan on articles/);
        }
      }
    } finally {
      await db.close();
      await h.wipe();
    }
  });
}
