import { DomainError } from '../../core/domain/errors.js';
import type { ColumnInfo } from './backup.entities.js';

export const invalidArchive = (message: string, line?: number): DomainError =>
  new DomainError('invalid_request', line === undefined ? message : `Archive line ${line}: ${message}`, [
    { path: 'body', message },
  ]);

/** One row as JSON: dates as ISO strings, everything else as it is. */
export function encodeRow(row: Record<string, unknown>, omit: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (omit.includes(key)) continue;
    out[key] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/** The row to insert, checked column by column: a value of the wrong type names its column. */
export function decodeRow(
  table: string,
  row: Record<string, unknown>,
  columns: readonly ColumnInfo[],
  fill: Readonly<Record<string, unknown>>,
  line: number,
): Record<string, unknown> {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  for (const key of Object.keys(row))
    if (!byKey.has(key)) throw invalidArchive(`${table} has no column ${JSON.stringify(key)}`, line);
  const out: Record<string, unknown> = { ...fill };
  for (const column of columns) {
    const value = row[column.key];
    if (value === undefined || value === null) {
      if (column.key in fill) continue;
      if (!column.optional) throw invalidArchive(`${table}.${column.key} is required`, line);
      if (value === null) out[column.key] = null;
      continue;
    }
    out[column.key] = decodeValue(table, column, value, line);
  }
  return out;
}

function decodeValue(table: string, column: ColumnInfo, value: unknown, line: number): unknown {
  const wrong = () => invalidArchive(`${table}.${column.key} must be ${column.kind}`, line);
  switch (column.kind) {
    case 'date': {
      if (typeof value !== 'string' || value.length > 40) throw wrong();
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw wrong();
      return date;
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong();
      return value;
    case 'string':
      if (typeof value !== 'string') throw wrong();
      return value;
    default:
      return value;
  }
}
