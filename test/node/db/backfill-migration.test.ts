import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../support/db-contract.js';
import {
  MIGRATIONS_ROOT,
  mysqlHarness,
  type NodeDbHarness,
  postgresHarness,
  sqliteHarness,
} from '../../support/db-node-harness.js';

/** The migrations of one dialect in journal order, each split where drizzle splits it. */
function migrations(dialect: string): { tag: string; statements: string[] }[] {
  const dir = path.join(MIGRATIONS_ROOT, dialect, 'migrations');
  const journal = JSON.parse(readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.map(({ tag }) => ({
    tag,
    statements: readFileSync(path.join(dir, `${tag}.sql`), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter((s) => s.replace(/--[^\n]*\n?/g, '').trim() !== ''),
  }));
}

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
    // The SQLite harness's file lives in a directory openNodeDatabase would create.
    const h = harness;
    let exec = async (statement: string, params: unknown[] = []) => void (await h.query(statement, params));
    if (dialect === 'sqlite') {
      mkdirSync(path.dirname(h.url.slice('sqlite:'.length)), { recursive: true });
      // The harness reads with all(); DDL and INSERT … SELECT need a statement runner.
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(h.url.slice('sqlite:'.length));
      closeSqlite = () => db.close();
      exec = async (statement, params = []) => void db.prepare(statement).run(...params);
    }
    // As openNodeDatabase does: with a schema in the URL, references point into it.
    const schema = dialect === 'postgres' ? new URL(h.url).searchParams.get('search_path') : null;
    const local = (statement: string) => (schema ? statement.replaceAll('"public".', `"${schema}".`) : statement);
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
