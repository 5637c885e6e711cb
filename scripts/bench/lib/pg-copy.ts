import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import postgres from 'postgres';

/**
 * The PostgreSQL side of the benchmark: a fresh schema in the given database
 * (`?search_path=` in DATABASE_URL puts the server's tables there, see
 * worker/src/adapters/db/postgres/postgres.kit.ts), and the seeded rows
 * copied over from the SQLite file once the server has migrated it, so that
 * both databases answer with the same articles. Epoch-millisecond `*_at`
 * columns become timestamps; everything else is copied as it is.
 */
const TABLES = ['sites', 'authors', 'articles', 'article_authors'] as const;

export interface BenchSchema {
  /** DATABASE_URL for the server: the schema's tables. */
  url: string;
  schema: string;
  drop(): Promise<void>;
}

export async function createBenchSchema(baseUrl: string): Promise<BenchSchema> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const sql = postgres(baseUrl, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  try {
    await sql`create schema ${sql(schema)}`;
  } finally {
    await sql.end({ timeout: 1 });
  }
  const url = new URL(baseUrl);
  url.searchParams.set('search_path', schema);
  return {
    url: url.toString(),
    schema,
    async drop() {
      const admin = postgres(baseUrl, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
      try {
        await admin`drop schema if exists ${admin(schema)} cascade`;
      } finally {
        await admin.end({ timeout: 1 });
      }
    },
  };
}

/** Copies the seeded tables from the SQLite file into the (migrated, empty) schema. */
export async function copySeedToPostgres(sqliteFile: string, target: BenchSchema): Promise<number> {
  const lite = new Database(sqliteFile, { readonly: true });
  const sql = postgres(target.url, { max: 1, onnotice: () => undefined });
  let rows = 0;
  try {
    for (const table of TABLES) {
      const all = lite.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
      const columns = Object.keys(all[0] ?? {});
      const dates = columns.filter((c) => c.endsWith('_at'));
      for (const row of all) for (const c of dates) if (typeof row[c] === 'number') row[c] = new Date(row[c] as number);
      // Under PostgreSQL's 65,535 bind parameters per statement.
      const batch = Math.floor(60_000 / Math.max(1, columns.length));
      for (let i = 0; i < all.length; i += batch) {
        await sql`insert into ${sql(table)} ${sql(all.slice(i, i + batch), ...columns)}`;
      }
      rows += all.length;
      await sql`analyze ${sql(table)}`;
    }
  } finally {
    lite.close();
    await sql.end({ timeout: 5 });
  }
  return rows;
}
