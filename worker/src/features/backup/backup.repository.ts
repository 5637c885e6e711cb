import { asc, type Column, getTableColumns, notInArray, sql } from 'drizzle-orm';
import { refuseOversizedRow } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { ColumnInfo, ColumnKind, ExportedTableInfo, TableExport, TableExports } from './backup.entities.js';
import type { BackupRepository } from './backup.port.js';
import { exportedTables } from './backup-tables.repository.js';

type ExportedTable = keyof SqlKit['tables'];

/** D1 binds at most 100 parameters per statement; the server databases allow far more. */
const MAX_PARAMS = 100;

const KINDS: Record<string, ColumnKind> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  json: 'json',
};

/** `exports`: every table's place in the archive (app/services.ts `TABLE_EXPORTS`). */
export function createBackupRepository(kit: SqlKit, exports: TableExports): BackupRepository {
  const { db } = kit;
  const EXPORTED = exportedTables(exports);
  const known = (name: string): ExportedTable => {
    if (!(EXPORTED as readonly string[]).includes(name)) throw new Error(`backup: ${name} is not an exported table`);
    return name as ExportedTable;
  };
  const table = (name: string) => kit.tables[known(name)];
  const cache = new Map<ExportedTable, { info: ColumnInfo[]; order: Column[] }>();
  const described = (name: ExportedTable) => {
    let found = cache.get(name);
    if (!found) {
      const columns = Object.entries(getTableColumns(table(name))) as [string, Column][];
      const info = columns.map(([key, c]) => {
        const kind = KINDS[c.dataType];
        if (!kind) throw new Error(`backup: ${name}.${key} has a column type (${c.dataType}) the archive cannot carry`);
        return { key, kind, optional: !c.notNull || c.hasDefault };
      });
      const primary = columns.filter(([, c]) => c.primary).map(([, c]) => c);
      found = { info, order: primary.length > 0 ? primary : columns.map(([, c]) => c) };
      cache.set(name, found);
    }
    return found;
  };

  const tables: ExportedTableInfo[] = EXPORTED.map((name) => {
    const spec = exports[name] as Extract<TableExport, { export: true }>;
    return {
      name,
      omit: spec.omit ?? [],
      fill: spec.fill ?? {},
      columns: described(name).info,
      ...(spec.rules && { rules: spec.rules }),
      ...(spec.remake && { remake: spec.remake }),
    };
  });

  const texts = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  /**
   * A row as the database's row limit (D1) lets it be stored: stored html is
   * a cache of the body, read rendered when absent, so it is left out first,
   * as article writes do; a row still too large is a 413, not a driver error.
   */
  const fitted = (row: Record<string, unknown>): Record<string, unknown> => {
    try {
      refuseOversizedRow(kit, texts(row));
      return row;
    } catch (err) {
      if (typeof row.html !== 'string') throw err;
      const without = { ...row, html: null };
      refuseOversizedRow(kit, texts(without));
      return without;
    }
  };

  return {
    tables,

    async count(name) {
      const [row] = await db.select({ n: sql<number>`count(*)` }).from(table(name));
      return Number(row?.n ?? 0);
    },

    async page(name, offset, limit) {
      const order = described(known(name)).order.map((c) => asc(c));
      return (await db
        .select()
        .from(table(name))
        .orderBy(...order)
        .limit(limit)
        .offset(offset)) as Record<string, unknown>[];
    },

    async insert(name, given) {
      if (given.length === 0) return;
      const rows = given.map(fitted);
      const perRow = described(known(name)).info.length;
      const size = Math.max(1, Math.floor(MAX_PARAMS / perRow));
      try {
        for (let i = 0; i < rows.length; i += size)
          // biome-ignore lint/suspicious/noExplicitAny: rows were checked column by column against this table (decodeRow)
          await db.insert(table(name)).values(rows.slice(i, i + size) as any);
      } catch (err) {
        // The importer checks keys and references first; this is the database saying so if one slipped through.
        if (kit.isUniqueViolation(err) || kit.isForeignKeyViolation(err)) {
          const message = `${name}: a row repeats a key or names a row the archive does not hold`;
          throw new DomainError('invalid_request', message, [{ path: 'body', message }]);
        }
        throw err;
      }
    },

    async clear(keepUserIds) {
      for (const name of [...EXPORTED].reverse()) {
        if (name === 'users') {
          const users = kit.tables.users;
          await (keepUserIds.length > 0
            ? db.delete(users).where(notInArray(users.id, [...keepUserIds]))
            : db.delete(users));
        } else await db.delete(table(name));
      }
    },
  };
}
