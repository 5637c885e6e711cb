import type { ExportedTableInfo } from './backup.entities.js';

/** Whole tables, read and written generically: what export and import need from storage. */
export interface BackupRepository {
  /** The exported tables, parents before children, with what each leaves out and fills in. */
  readonly tables: readonly ExportedTableInfo[];
  count(table: string): Promise<number>;
  /** Rows in a stable order (primary key, or every column for link tables), `limit` from `offset`. */
  page(table: string, offset: number, limit: number): Promise<Record<string, unknown>[]>;
  /** Inserts decoded rows (in as many statements as the database's parameter limit needs). */
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void>;
  /** Deletes every row of the exported tables, children first, keeping the listed users. */
  clear(keepUserIds: readonly string[]): Promise<void>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    backup: BackupRepository;
  }
}
