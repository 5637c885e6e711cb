import type { TableRules } from './archive-rules.js';

/**
 * What an import has read so far, as far as later rows need it: the keys
 * taken in each table (so a repeated id, slug or link is refused at its line
 * rather than by the database mid-batch) and the ids a later row may name.
 * It grows with the rows read, like the import itself.
 */
export function createArchiveLedger(rules: Readonly<Record<string, TableRules>>) {
  const taken = new Map<string, Set<string>>();
  const keysOf = (table: string, columns: readonly string[]) => {
    const name = `${table}:${columns.join(',')}`;
    const set = taken.get(name) ?? new Set<string>();
    taken.set(name, set);
    return set;
  };
  const keyOf = (row: Readonly<Record<string, unknown>>, columns: readonly string[]) =>
    JSON.stringify(columns.map((c) => row[c] ?? null));

  return {
    /** Null when the row may be added (and then it is), else why not. */
    add(table: string, row: Readonly<Record<string, unknown>>): string | null {
      const r = rules[table];
      for (const [column, parent] of Object.entries(r?.refs ?? {})) {
        const value = row[column];
        if (value === null || value === undefined) continue;
        if (!keysOf(parent, ['id']).has(keyOf({ id: value }, ['id'])))
          return `${table}.${column} names ${parent} ${JSON.stringify(value)}, which the archive does not hold before it`;
      }
      const unique = r?.unique ?? [];
      for (const columns of unique)
        if (keysOf(table, columns).has(keyOf(row, columns)))
          return `${table}: another row has the same ${columns.join(' and ')}`;
      for (const columns of unique) keysOf(table, columns).add(keyOf(row, columns));
      return null;
    },
  };
}
