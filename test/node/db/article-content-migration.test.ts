import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../support/db-contract.js';
import { mysqlHarness, type NodeDbHarness, postgresHarness, sqliteHarness } from '../../support/db-node-harness.js';
import { migrations, statementRunner } from '../../support/migration-steps.js';

const DIALECTS = [
  { name: 'SQLite', dialect: 'sqlite', make: sqliteHarness, mark: (_i: number) => '?', now: Date.now() },
  { name: 'MariaDB', dialect: 'mysql', make: mysqlHarness, mark: (_i: number) => '?', now: '2026-11-26 10:00:00.000' },
  {
    name: 'PostgreSQL',
    dialect: 'postgres',
    make: postgresHarness,
    mark: (i: number) => `$${i}`,
    now: '2026-11-26T10:00:00.000Z',
  },
] as const;

describe.each(DIALECTS)('article slug migration on $name', ({ dialect, make, mark, now }) => {
  let harness: NodeDbHarness | undefined;
  let close: (() => void) | undefined;
  afterEach(async () => {
    close?.();
    await harness?.destroy();
  });

  it('gives every existing article its id as slug, scoped to its site, so the unique index holds', async () => {
    harness = await make();
    const runner = await statementRunner(harness, dialect);
    close = runner.close;
    const all = migrations(dialect);
    const split = all.findIndex((m) => m.statements.some((s) => s.includes('slug_scope') && s.includes('UPDATE')));
    expect(split).toBeGreaterThan(0);
    for (const m of all.slice(0, split)) for (const statement of m.statements) await runner.exec(statement);

    const siteId = newId();
    await runner.exec(
      `INSERT INTO sites (id, name, base_url, description, created_at, updated_at) VALUES (${mark(1)}, 'S', 'https://s.example', NULL, ${mark(2)}, ${mark(3)})`,
      [siteId, now, now],
    );
    // Same titles, with and without a site: titles cannot make unique slugs here, ids do.
    const ids = [newId(), newId(), newId()];
    for (const [i, id] of ids.entries()) {
      await runner.exec(
        `INSERT INTO articles (id, title, body, format, status, site_id, created_at, updated_at, published_at) VALUES (${mark(1)}, 'Same', 'B', 'markdown', 'offline', ${mark(2)}, ${mark(3)}, ${mark(4)}, NULL)`,
        [id, i === 2 ? siteId : null, now, now],
      );
    }

    for (const m of all.slice(split)) for (const statement of m.statements) await runner.exec(statement);
    const rows = await harness.query('SELECT id, slug, slug_scope FROM articles');
    const found = rows.map((r) => [String(r.id), String(r.slug), String(r.slug_scope)]);
    const expected = ids.map((id, i) => [id, id.toLowerCase(), i === 2 ? siteId : '']);
    expect(found.sort()).toEqual(expected.sort());
  });
});
