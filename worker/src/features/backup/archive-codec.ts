import { DomainError } from '../../core/domain/errors.js';
import { TimestampSchema } from '../../wire/common.schema.js';
import { LONE_SURROGATE } from '../../wire/text.js';
import { DEFAULT_MAX_TEXT, MAX_INTEGER, type TableRules } from './archive-rules.js';
import type { ColumnInfo, ExportedTableInfo } from './backup.entities.js';

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

// Every database stores these instants (MySQL's DATETIME ends in 9999; none predates the epoch).
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
// JSON columns (none exported today) are bounded like a long text.
const MAX_JSON = 100_000;

/**
 * The row to insert, checked column by column: a column the export leaves
 * out (a secret, a code, this installation's state) is refused, never
 * stored; every value must be of its column's kind and pass the table's
 * rules (archive-rules.ts); the first failure names its column.
 */
export function decodeRow(
  table: ExportedTableInfo,
  rules: TableRules | undefined,
  row: Record<string, unknown>,
  line: number,
): Record<string, unknown> {
  const { name, columns, omit, fill } = table;
  const byKey = new Map(columns.map((c) => [c.key, c]));
  for (const key of Object.keys(row)) {
    if (!byKey.has(key)) throw invalidArchive(`${name} has no column ${JSON.stringify(key)}`, line);
    if (omit.includes(key))
      throw invalidArchive(
        `${name}.${key} is never carried by an archive (a secret, or this installation's own)`,
        line,
      );
  }
  const out: Record<string, unknown> = { ...fill };
  for (const column of columns) {
    if (column.key in fill) continue;
    const value = row[column.key];
    if (value === undefined || value === null) {
      if (!column.optional) throw invalidArchive(`${name}.${column.key} is required`, line);
      if (value === null) out[column.key] = null;
      continue;
    }
    const decoded = decodeValue(name, column, value, line);
    const rule = rules?.columns?.[column.key];
    if (rule) {
      const checked = rule.safeParse(decoded);
      if (!checked.success)
        throw invalidArchive(`${name}.${column.key}: ${checked.error.issues[0]?.message ?? 'not allowed'}`, line);
    } else if (typeof decoded === 'string' && decoded.length > DEFAULT_MAX_TEXT)
      throw invalidArchive(`${name}.${column.key} is longer than ${DEFAULT_MAX_TEXT} characters`, line);
    out[column.key] = decoded;
  }
  const refused = rules?.row?.(out);
  if (refused) throw invalidArchive(`${name}: ${refused}`, line);
  return out;
}

function decodeValue(table: string, column: ColumnInfo, value: unknown, line: number): unknown {
  const wrong = (what: string = column.kind) => invalidArchive(`${table}.${column.key} must be ${what}`, line);
  switch (column.kind) {
    case 'date': {
      if (typeof value !== 'string' || !TimestampSchema.safeParse(value).success) throw wrong('an ISO 8601 instant');
      const date = new Date(value);
      const ms = date.getTime();
      if (Number.isNaN(ms) || ms < EARLIEST || ms > LATEST) throw wrong('an instant between 1970 and 9999');
      return date;
    }
    case 'number':
      if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_INTEGER)
        throw wrong(`a whole number from 0 to ${MAX_INTEGER}`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong();
      return value;
    case 'string':
      if (typeof value !== 'string') throw wrong();
      // PostgreSQL stores no NUL, and no database stores a lone surrogate unchanged.
      if (value.includes('\u0000') || LONE_SURROGATE.test(value)) throw wrong('text without NUL or lone surrogates');
      return value;
    default:
      if (JSON.stringify(value).length > MAX_JSON) throw wrong(`JSON of at most ${MAX_JSON} characters`);
      return value;
  }
}
