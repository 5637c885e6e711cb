/** What a password hash column holds for an imported account: no password verifies against it. */
export const NO_PASSWORD = '!';

/** Column types the three dialects share (drizzle's `dataType`), as they travel in JSON. */
export type ColumnKind = 'string' | 'number' | 'boolean' | 'date' | 'json';

export interface ColumnInfo {
  key: string;
  kind: ColumnKind;
  /** May be left out on import (nullable, or a default the database fills). */
  optional: boolean;
}

import type { TableExport, TableRules } from '../../ports/table-export.js';

export type { TableExport, TableExports } from '../../ports/table-export.js';

/** One exported table as export and import see it, parents listed before children. */
export interface ExportedTableInfo {
  name: string;
  omit: readonly string[];
  fill: Readonly<Record<string, unknown>>;
  columns: readonly ColumnInfo[];
  /** The rules its feature declared with its export decision, if it declared them there. */
  rules?: TableRules;
  remake?: Extract<TableExport, { export: true }>['remake'];
}
