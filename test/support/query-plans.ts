import { Placeholder } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openNodeDatabase } from '../../worker/src/adapters/db/node-database.js';
import type { SqlKit } from '../../worker/src/adapters/db/shared/sql-kit.js';
import { createArticlesRepository } from '../../worker/src/features/articles/articles.repository.js';
import { createSchedulingRepository, dueArticles } from '../../worker/src/features/scheduling/scheduling.repository.js';
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

/** The articles repository on a wiped database, preparing through `recordingKit`; the database is wiped again after. */
async function withRecordedRepository(
  h: NodeDbHarness,
  run: (
    repo: ReturnType<typeof createArticlesRepository>,
    statements: ReturnType<typeof recordingKit>['statements'],
  ) => Promise<void>,
): Promise<void> {
  await h.wipe();
  const db = await openNodeDatabase(h.url, { migrationsRoot: MIGRATIONS_ROOT });
  try {
    const { recording, statements } = recordingKit(db.kit);
    await run(createArticlesRepository(recording), statements);
  } finally {
    await db.close();
    await h.wipe();
  }
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
    await withRecordedRepository(h, async (repo, statements) => {
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
    });
  });
}

const TAG_ROWS = 2000;
/** Per dialect: 2,000 tags, two on every article (MariaDB: the articles too, online when even, without sites). */
const TAGGED_SEEDS: Record<'sqlite' | 'postgres' | 'mysql', string[]> = {
  sqlite: [
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TAG_ROWS})
      INSERT INTO tags (id, name, slug, created_at, updated_at)
      SELECT printf('0190a002-0000-7000-8000-%012d', i), 'Tag ' || i, 'tag-' || i, 1764000000000, 1764000000000
      FROM n RETURNING id`,
    // Article i carries tag i % 2000 + 1 first and tag (i + 1) % 2000 + 1 second.
    `INSERT INTO article_tags (article_id, tag_id, position)
      SELECT id, printf('0190a002-0000-7000-8000-%012d', (CAST(substr(id, 25) AS INTEGER) + k) % ${TAG_ROWS} + 1), k
      FROM articles, (SELECT 0 AS k UNION ALL SELECT 1) RETURNING tag_id`,
  ],
  postgres: [
    `INSERT INTO tags (id, name, slug, created_at, updated_at)
      SELECT ('0190a002-0000-7000-8000-' || lpad(i::text, 12, '0'))::uuid, 'Tag ' || i, 'tag-' || i, now(), now()
      FROM generate_series(1, ${TAG_ROWS}) AS i`,
    `INSERT INTO article_tags (article_id, tag_id, position)
      SELECT id, ('0190a002-0000-7000-8000-' || lpad(((substr(id::text, 25)::int + k) % ${TAG_ROWS} + 1)::text, 12, '0'))::uuid, k
      FROM articles, (VALUES (0), (1)) AS ks(k)`,
    'ANALYZE articles, tags, article_tags',
  ],
  // MariaDB's sequence tables (seq_1_to_N) stand in for a recursive insert.
  mysql: [
    `INSERT INTO articles (id, title, body, format, status, created_at, updated_at, slug, slug_scope)
      SELECT concat('0190a001-0000-7000-8000-', lpad(seq, 12, '0')), concat('Title ', seq), 'body', 'markdown',
        CASE WHEN seq % 2 = 0 THEN 'online' ELSE 'offline' END, now(3), now(3), concat('slug-', seq), ''
      FROM seq_1_to_${SEED_ROWS}`,
    `INSERT INTO tags (id, name, slug, created_at, updated_at)
      SELECT concat('0190a002-0000-7000-8000-', lpad(seq, 12, '0')), concat('Tag ', seq), concat('tag-', seq), now(3), now(3)
      FROM seq_1_to_${TAG_ROWS}`,
    `INSERT INTO article_tags (article_id, tag_id, position)
      SELECT id, concat('0190a002-0000-7000-8000-', lpad((cast(substr(id, 25) AS unsigned) + k) % ${TAG_ROWS} + 1, 12, '0')), k
      FROM articles, (SELECT 0 AS k UNION ALL SELECT 1) AS ks`,
    'ANALYZE TABLE articles, tags, article_tags',
  ],
};

/**
 * A tagged list page reads its articles' tags, names and slugs included,
 * in its own statement: per article, its links through their article index
 * and each tag by its primary key, never a walk of the tags or the links;
 * the `?tag=` filter goes from the tag's slug to its links by index.
 */
export function runTagListQueryPlanTest(harness: () => NodeDbHarness, dialect: 'sqlite' | 'postgres' | 'mysql'): void {
  it('reads a tagged list page and its tags through indexes, never a walk of the tags or the links', async () => {
    const h = harness();
    await withRecordedRepository(h, async (repo, statements) => {
      if (dialect !== 'mysql') {
        for (const id of ['a', 'b', 'c']) await h.fixtures.insertSite(`0190a000-0000-7000-8000-00000000000${id}`);
        await h.query(dialect === 'sqlite' ? SQLITE_SEED : POSTGRES_SEED, [SEED_ROWS]);
      }
      for (const statement of TAGGED_SEEDS[dialect]) await h.query(statement);
      const found = await repo.listForRead({ tags: ['tag-8'], status: 'online', limit: 21 });
      // Article 7 carries tag 8 first but is offline; article 6 carries it second and is online.
      expect(found.length).toBe(1);
      for (const f of found) expect(f.tags.map((t) => t.slug)).toContain('tag-8');
      const [name, statement] = [...statements].find(([n]) => n.startsWith('articles_list_'))!;
      const params = statement.params.map((p) =>
        p instanceof Placeholder
          ? ({ tag0: 'tag-8', status: 'online', limit: 21 } as Record<string, unknown>)[p.name]
          : p,
      );
      if (dialect === 'sqlite') {
        const plan = (await h.query(`EXPLAIN QUERY PLAN ${statement.sql}`, params)).map((r) => r.detail).join('; ');
        expect(plan, name).toMatch(/SEARCH tags USING INDEX tags_slug_unique \(slug=\?\)/);
        expect(plan, name).toMatch(/SEARCH article_tags USING INDEX article_tags_tag_id_idx \(tag_id=\?\)/);
        expect(plan, name).toMatch(/SEARCH article_tags USING (COVERING )?INDEX \w+ \(article_id=\?\)/);
        expect(plan, name).toMatch(/SEARCH tags USING INDEX sqlite_autoindex_tags_1 \(id=\?\)/);
        expect(plan, name).not.toMatch(/SCAN (tags|article_tags)\b/);
      } else if (dialect === 'mysql') {
        // One row per table read: how (`type`) and through which index (`key`).
        const rows = await h.query(`EXPLAIN ${statement.sql}`, params);
        const reads = rows.map((r) => `${r.select_type} ${r.table} ${r.type} ${r.key}`);
        expect(reads, name).toContain('PRIMARY tags const tags_slug_unique');
        expect(reads, name).toContain('PRIMARY article_tags ref article_tags_tag_id_idx');
        expect(reads, name).toContain('DEPENDENT SUBQUERY article_tags ref article_tags_article_id_position_idx');
        expect(reads, name).toContain('DEPENDENT SUBQUERY tags eq_ref PRIMARY');
        for (const r of rows)
          if (r.table === 'tags' || r.table === 'article_tags') expect(r.type, name).not.toBe('ALL');
      } else {
        const plan = (await h.query(`EXPLAIN ${statement.sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, name).toMatch(/Index (Only )?Scan using tags_slug_unique on tags/);
        expect(plan, name).toMatch(/Index (Only )?Scan using tags_pkey on tags/);
        expect(plan, name).toMatch(/Index (Only )?Scan using \w+ on article_tags/);
        expect(plan, name).not.toMatch(/Seq Scan on (tags|article_tags)\b/);
      }
    });
  });
}

/** Per dialect: article i (offline when odd) scheduled i seconds before now when i % 50 = 1: 40 due, 960 offline ones not scheduled. */
const SCHEDULE_SOME: Record<'sqlite' | 'postgres' | 'mysql', string[]> = {
  sqlite: [
    `UPDATE articles SET scheduled_at = CAST(unixepoch('subsec') * 1000 AS INTEGER) - CAST(substr(id, 25) AS INTEGER) * 1000
      WHERE status = 'offline' AND CAST(substr(id, 25) AS INTEGER) % 50 = 1 RETURNING id`,
  ],
  postgres: [
    `UPDATE articles SET scheduled_at = now() - substr(id::text, 25)::int * interval '1 second'
      WHERE status = 'offline' AND substr(id::text, 25)::int % 50 = 1`,
    'ANALYZE articles',
  ],
  mysql: [
    TAGGED_SEEDS.mysql[0]!,
    `UPDATE articles SET scheduled_at = now(3) - INTERVAL cast(substr(id, 25) AS unsigned) SECOND
      WHERE status = 'offline' AND cast(substr(id, 25) AS unsigned) % 50 = 1`,
    'ANALYZE TABLE articles',
  ],
};

/**
 * The scheduler reads its due articles at every tick: through an index of
 * scheduled ones (`articles_status_scheduled_at_idx`), never a walk of every
 * offline article through the status index, which SQLite (no statistics)
 * chose before that index existed and which took 15–110 ms a tick at 20,000
 * articles, on the event loop.
 */
export function runDueQueryPlanTest(harness: () => NodeDbHarness, dialect: 'sqlite' | 'postgres' | 'mysql'): void {
  it('reads the due articles through an index of scheduled ones, never a walk of the offline ones', async () => {
    const h = harness();
    await h.wipe();
    const db = await openNodeDatabase(h.url, { migrationsRoot: MIGRATIONS_ROOT });
    try {
      if (dialect !== 'mysql') {
        for (const id of ['a', 'b', 'c']) await h.fixtures.insertSite(`0190a000-0000-7000-8000-00000000000${id}`);
        await h.query(dialect === 'sqlite' ? SQLITE_SEED : POSTGRES_SEED, [SEED_ROWS]);
      }
      for (const statement of SCHEDULE_SOME[dialect]) await h.query(statement);
      const now = new Date(Date.now() + 60_000);
      const due = await createSchedulingRepository(db.kit).due(now, 50);
      // Articles 1, 51, …, 1951: the one scheduled longest ago first.
      expect(due.map((d) => Number(d.id.slice(24)))).toEqual(Array.from({ length: 40 }, (_, k) => 1951 - 50 * k));
      const { sql, params } = dueArticles(db.kit, now, 50).toSQL();
      if (dialect === 'sqlite') {
        const plan = (await h.query(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail).join('; ');
        expect(plan).toMatch(
          /SEARCH articles USING INDEX articles_status_scheduled_at_idx \(status=\? AND scheduled_at/,
        );
        expect(plan).not.toMatch(/SCAN articles|articles_status_id_idx/);
      } else if (dialect === 'mysql') {
        const [read] = await h.query(`EXPLAIN ${sql}`, params);
        expect(read?.key).toMatch(/^articles_(status_)?scheduled_at_idx$/);
        expect(read?.type).not.toBe('ALL');
      } else {
        const plan = (await h.query(`EXPLAIN ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) articles_(status_)?scheduled_at_idx/);
        expect(plan).not.toMatch(/Seq Scan on articles|articles_status_id_idx/);
      }
    } finally {
      await db.close();
      await h.wipe();
    }
  });
}
