import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { importAppModule } from './app-module.ts';

/**
 * Fills a SQLite database that the server has already migrated with
 * `articles` articles (plus a few sites and authors, and one or two author
 * links per article), in one transaction through prepared statements.
 *
 * The rows are what the API would have written: lower-case UUIDv7 ids whose
 * time prefix is the article's created_at (so id order is time order, as the
 * cursors assume), timestamps in epoch milliseconds (drizzle's
 * `timestamp_ms`), `published_at` set exactly when the article is online.
 * Everything is drawn from a seeded PRNG, so two runs seed the same text.
 *
 * The column lists below are checked against the live schema first: a column
 * the data layer adds as NOT NULL without a default, or renames, stops the
 * benchmark with a clear message instead of seeding something the server
 * would never have written.
 */

const SITES = 5;
const AUTHORS = 50;
const FORMATS = ['markdown', 'markdown', 'markdown', 'markdown', 'html', 'plaintext'];

const COLUMNS: Record<'sites' | 'authors' | 'articles' | 'article_authors', string[]> = {
  sites: ['id', 'name', 'base_url', 'description', 'created_at', 'updated_at'],
  authors: ['id', 'name', 'slug', 'bio', 'avatar_url', 'created_at', 'updated_at'],
  articles: [
    'id',
    'title',
    'body',
    'format',
    'status',
    'site_id',
    'created_at',
    'updated_at',
    'published_at',
    'slug',
    'slug_scope',
    'html',
  ],
  article_authors: ['article_id', 'author_id', 'position'],
};

/** mulberry32: small, fast, good enough for test data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'edge worker cache request response latency region database index cursor page article author site ' +
  'content publish draft review image variant storage bucket queue deploy release rollback migration ' +
  'schema query plan token session header route middleware handler stream body title format markdown ' +
  'the a of and to in is that for on with as it by from at this be are was or an which can will not'
).split(' ');

function checkColumns(db: Database.Database): void {
  const problems: string[] = [];
  for (const [table, cols] of Object.entries(COLUMNS)) {
    const info = db
      .prepare<[], { name: string; notnull: number; dflt_value: string | null }>(
        `PRAGMA table_info(${JSON.stringify(table)})`,
      )
      .all();
    if (info.length === 0) {
      problems.push(`table ${table} does not exist`);
      continue;
    }
    const live = new Set(info.map((c) => c.name));
    for (const c of cols) if (!live.has(c)) problems.push(`${table}.${c} is gone from the schema`);
    for (const c of info) {
      if (c.notnull && c.dflt_value === null && !cols.includes(c.name)) {
        problems.push(`${table}.${c.name} is NOT NULL without a default and the seeder does not fill it`);
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `the database schema no longer matches scripts/bench/lib/seed.ts (update COLUMNS there):\n  - ${problems.join('\n  - ')}`,
    );
  }
}

function insertSql(table: keyof typeof COLUMNS): string {
  const cols = COLUMNS[table];
  return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
}

export interface Seeded {
  articles: number;
  online: number;
  onlineIdsNewestFirst: string[];
  bodyBytesAvg: number;
  seconds: number;
}

export interface SeedOptions {
  articles?: number;
  onlineShare?: number;
  seed?: number;
  /**
   * The html every write stores beside the body (the app's renderer,
   * `renderArticleHtml`); without it the column stays null, as in rows from
   * before the column, and each article's first read renders and stores it.
   */
  renderHtml?: (body: string, format: string) => string;
}

export function seedDatabase(
  file: string,
  { articles = 100_000, onlineShare = 0.5, seed = 20261125, renderHtml }: SeedOptions = {},
): Seeded {
  const started = performance.now();
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    checkColumns(db);
    const existing = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM articles').get()?.n;
    if (existing !== 0) throw new Error(`expected an empty articles table, found ${existing} rows`);

    // A thousand paragraphs of 2–6 sentences; each body strings a few together.
    const paragraphs = Array.from({ length: 1000 }, () => {
      const sentences = 2 + Math.floor(rand() * 5);
      let p = '';
      for (let s = 0; s < sentences; s++) {
        const n = 8 + Math.floor(rand() * 14);
        const words = Array.from({ length: n }, () => pick(WORDS));
        const [first = ''] = words;
        words[0] = first.charAt(0).toUpperCase() + first.slice(1);
        p += `${(s ? ' ' : '') + words.join(' ')}.`;
      }
      return p;
    });

    // Articles every ~5 minutes up to an hour ago, oldest first, so that
    // ids (time-ordered) ascend with the insert order.
    const step = 5 * 60_000;
    const t0 = Date.now() - 3_600_000 - articles * step;
    const siteRows = Array.from({ length: SITES }, (_, i) => {
      const at = t0 - 86_400_000 + i * 1000;
      return [
        uuidv7({ msecs: at }),
        `Site ${i + 1}`,
        `https://site${i + 1}.example`,
        `Benchmark site ${i + 1}`,
        at,
        at,
      ];
    });
    const authorRows = Array.from({ length: AUTHORS }, (_, i) => {
      const at = t0 - 3_600_000 + i * 1000;
      return [uuidv7({ msecs: at }), `Author ${i + 1}`, `author-${i + 1}`, paragraphs[i], null, at, at];
    });

    const insertSite = db.prepare(insertSql('sites'));
    const insertAuthor = db.prepare(insertSql('authors'));
    const insertArticle = db.prepare(insertSql('articles'));
    const insertLink = db.prepare(insertSql('article_authors'));
    const onlineIds: string[] = [];
    let bytes = 0;

    db.transaction(() => {
      for (const row of siteRows) insertSite.run(row);
      for (const row of authorRows) insertAuthor.run(row);
      for (let i = 0; i < articles; i++) {
        const createdAt = t0 + i * step + Math.floor(rand() * 60_000);
        const id = uuidv7({ msecs: createdAt });
        const online = rand() < onlineShare;
        const publishedAt = online ? createdAt + Math.floor(rand() * 3_600_000) : null;
        const updatedAt = (publishedAt ?? createdAt) + Math.floor(rand() * 600_000);
        const title = `${pick(paragraphs)
          .slice(0, 30 + Math.floor(rand() * 60))
          .trim()} #${i + 1}`;
        const parts = 1 + Math.floor(rand() * 3);
        let body = `# Article ${i + 1}\n`;
        for (let p = 0; p < parts; p++) body += `\n${pick(paragraphs)}\n`;
        bytes += body.length;
        const siteId = rand() < 0.8 ? pick(siteRows)[0] : null;
        const format = pick(FORMATS);
        insertArticle.run(
          id,
          title,
          body,
          format,
          online ? 'online' : 'offline',
          siteId,
          createdAt,
          updatedAt,
          publishedAt,
          // Unique in its site, as the API's generated slugs are.
          `article-${i + 1}`,
          siteId ?? '',
          renderHtml ? renderHtml(body, format) : null,
        );
        const first = Math.floor(rand() * AUTHORS);
        insertLink.run(id, authorRows[first]![0], 0);
        if (rand() < 0.3) insertLink.run(id, authorRows[(first + 1) % AUTHORS]![0], 1);
        if (online) onlineIds.push(id);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');

    return {
      articles,
      online: onlineIds.length,
      onlineIdsNewestFirst: onlineIds.reverse(),
      bodyBytesAvg: Math.round(bytes / articles),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    db.close();
  }
}

/** The query plans of the two hot reads, for the report (read-only). */
export function explainHotQueries(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const plan = (sql: string, ...args: string[]) =>
      db
        .prepare<string[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...args)
        .map((r) => r.detail)
        .join('; ');
    const anyId = db.prepare<[], { id: string }>('SELECT id FROM articles LIMIT 1').get()?.id ?? '';
    return {
      list: plan(`SELECT * FROM articles WHERE status = ? AND id < ? ORDER BY id DESC LIMIT 21`, 'online', anyId),
      // The single read: the article with its links in one statement (articles.repository.ts, ordered-ids.ts).
      byId: plan(
        `SELECT *, (SELECT group_concat(position || ':' || author_id, ',') FROM article_authors WHERE article_authors.article_id = articles.id),
          (SELECT group_concat(position || ':' || tag_id, ',') FROM article_tags WHERE article_tags.article_id = articles.id),
          (SELECT count(*) FROM article_images WHERE article_images.article_id = articles.id)
         FROM articles WHERE id = ? LIMIT 1`,
        anyId,
      ),
      authors: plan(
        `SELECT * FROM article_authors WHERE article_id IN (?, ?) ORDER BY article_id, position`,
        anyId,
        anyId,
      ),
      images: plan(`SELECT * FROM images WHERE article_id IN (?, ?)`, anyId, anyId),
    };
  } finally {
    db.close();
  }
}

/**
 * The app's own renderer (core/content/render.ts, as every article write
 * stores its html), bundled from the TypeScript sources with esbuild.
 */
export async function appRenderer(): Promise<(body: string, format: string) => string> {
  const { renderArticleHtml } = await importAppModule<{
    renderArticleHtml: (body: string, format: string) => string;
  }>('render', "export { renderArticleHtml } from './worker/src/core/content/render.ts';");
  return renderArticleHtml;
}
