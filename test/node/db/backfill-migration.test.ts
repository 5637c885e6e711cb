import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../support/db-contract.js';
import { mysqlHarness, type NodeDbHarness, postgresHarness, sqliteHarness } from '../../support/db-node-harness.js';
import { migrations, statementRunner } from '../../support/migration-steps.js';

const DIALECTS = [
  { name: 'SQLite', dialect: 'sqlite', make: sqliteHarness, mark: (_i: number) => '?', now: Date.now() },
  { name: 'MariaDB', dialect: 'mysql', make: mysqlHarness, mark: (_i: number) => '?', now: '2026-11-25 21:00:00.000' },
  {
    name: 'PostgreSQL',
    dialect: 'postgres',
    make: postgresHarness,
    mark: (i: number) => `$${i}`,
    now: '2026-11-25T21:00:00.000Z',
  },
] as const;

describe.each(DIALECTS)('article_images backfill migration on $name', ({ dialect, make, mark, now }) => {
  let harness: NodeDbHarness | undefined;
  let closeSqlite: (() => void) | undefined;
  afterEach(async () => {
    closeSqlite?.();
    await harness?.destroy();
  });

  it('links every existing image to the article it was uploaded for', async () => {
    harness = await make();
    const h = harness;
    const runner = await statementRunner(h, dialect);
    closeSqlite = runner.close;
    const exec = runner.exec;
    const local = (statement: string) => statement;
    const all = migrations(dialect);
    const split = all.findIndex((m) => m.tag.endsWith('_article_images_purge'));
    expect(split).toBeGreaterThan(0);
    for (const m of all.slice(0, split)) for (const statement of m.statements) await exec(local(statement));

    const articles = [newId(), newId()];
    const images = [newId(), newId(), newId()];
    for (const id of articles) {
      await exec(
        `INSERT INTO articles (id, title, body, format, status, site_id, created_at, updated_at, published_at) VALUES (${mark(1)}, 'T', 'B', 'markdown', 'offline', NULL, ${mark(2)}, ${mark(3)}, NULL)`,
        [id, now, now],
      );
    }
    for (const [i, id] of images.entries()) {
      await exec(
        `INSERT INTO images (id, article_id, filename, content_type, bytes, width, height, sha256, created_at) VALUES (${mark(1)}, ${mark(2)}, ${mark(3)}, 'image/png', 1, 1, 1, ${mark(4)}, ${mark(5)})`,
        [id, articles[i === 2 ? 1 : 0], `${id}.png`, 'a'.repeat(64), now],
      );
    }

    for (const m of all.slice(split)) for (const statement of m.statements) await exec(local(statement));
    const links = await h.query('SELECT article_id, image_id FROM article_images ORDER BY image_id');
    expect(links.map((r) => [String(r.article_id), String(r.image_id)])).toEqual([
      [articles[0], images[0]],
      [articles[0], images[1]],
      [articles[1], images[2]],
    ]);
  });
});
