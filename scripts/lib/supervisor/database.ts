import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { copyFileDurable, fsyncDir, writeFileDurable } from './durable.ts';

/**
 * SQLite backups around a switch. Taken while no server runs (the old one
 * has stopped, the new one has not started), so the files on disk are the
 * whole database: the main file plus its write-ahead log when a server was
 * killed before it could checkpoint. MySQL/PostgreSQL are not backed up
 * here (docs/releases.md, "Databases").
 */
const DEFAULT_DATABASE_URL = 'sqlite:./data/cms.db';

/** The SQLite file of DATABASE_URL (resolved against the install directory), or null for a server database. */
export function sqliteFile(databaseUrl: string | undefined, installDir: string): string | null {
  const url = databaseUrl || DEFAULT_DATABASE_URL;
  if (!url.startsWith('sqlite:')) return null;
  const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  if (file === '' || file === ':memory:') return null;
  return path.resolve(installDir, file);
}

/**
 * Copies the database into backupsDir/<id>/ (complete or absent: written
 * into a scratch directory, then renamed). Returns the backup directory
 * relative to installDir, or null when there is nothing to back up yet.
 */
export function backupSqlite(dbFile: string, backupsDir: string, id: string, installDir: string): string | null {
  if (!existsSync(dbFile)) return null;
  mkdirSync(backupsDir, { recursive: true });
  const target = path.join(backupsDir, id);
  const scratch = path.join(backupsDir, `.tmp-${id}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { mode: 0o700 });
  copyFileDurable(dbFile, path.join(scratch, 'db.sqlite'));
  if (existsSync(`${dbFile}-wal`)) copyFileDurable(`${dbFile}-wal`, path.join(scratch, 'db.sqlite-wal'));
  writeFileDurable(
    path.join(scratch, 'backup.json'),
    `${JSON.stringify({ database: dbFile, takenAt: new Date().toISOString() })}\n`,
  );
  rmSync(target, { recursive: true, force: true });
  renameSync(scratch, target);
  fsyncDir(backupsDir);
  return path.relative(installDir, target);
}

/**
 * Puts a backup back in place of the database. Idempotent: after a crash
 * half-way the supervisor simply runs it again (the state file still says
 * the restore is due). The main file is renamed in last.
 */
export function restoreSqlite(backupDir: string, dbFile: string): void {
  if (!existsSync(path.join(backupDir, 'db.sqlite'))) throw new Error(`backup ${backupDir} has no database file`);
  mkdirSync(path.dirname(dbFile), { recursive: true });
  rmSync(`${dbFile}-shm`, { force: true });
  if (existsSync(path.join(backupDir, 'db.sqlite-wal')))
    copyFileDurable(path.join(backupDir, 'db.sqlite-wal'), `${dbFile}-wal`);
  else rmSync(`${dbFile}-wal`, { force: true });
  copyFileDurable(path.join(backupDir, 'db.sqlite'), dbFile);
}

/** Deletes backups no release in the state refers to any more. */
export function pruneBackups(
  backupsDir: string,
  keep: readonly (string | null | undefined)[],
  installDir: string,
): void {
  if (!existsSync(backupsDir)) return;
  const kept = new Set(keep.filter((b): b is string => Boolean(b)).map((b) => path.resolve(installDir, b)));
  for (const name of readdirSync(backupsDir)) {
    const p = path.join(backupsDir, name);
    if (!kept.has(p)) rmSync(p, { recursive: true, force: true });
  }
}
