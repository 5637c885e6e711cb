import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_ROOT, type NodeDbHarness } from './db-node-harness.js';

/** The migrations of one dialect in journal order, each split where drizzle splits it. */
export function migrations(dialect: string): { tag: string; statements: string[] }[] {
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

/**
 * Runs statements one by one on a fresh harness database, as the migrator
 * would: a statement runner for SQLite (the harness reads with all()), and
 * references into the PostgreSQL harness's own schema. `close` ends the
 * SQLite connection.
 */
export async function statementRunner(h: NodeDbHarness, dialect: string) {
  let exec = async (statement: string, params: unknown[] = []) => void (await h.query(statement, params));
  let close = () => {};
  if (dialect === 'sqlite') {
    // The SQLite harness's file lives in a directory openNodeDatabase would create.
    mkdirSync(path.dirname(h.url.slice('sqlite:'.length)), { recursive: true });
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(h.url.slice('sqlite:'.length));
    close = () => db.close();
    exec = async (statement, params = []) => void db.prepare(statement).run(...params);
  }
  const schema = dialect === 'postgres' ? new URL(h.url).searchParams.get('search_path') : null;
  const local = (statement: string) => (schema ? statement.replaceAll('"public".', `"${schema}".`) : statement);
  return { exec: (statement: string, params?: unknown[]) => exec(local(statement), params), close };
}
