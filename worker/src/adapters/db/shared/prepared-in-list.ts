import { type Placeholder, sql } from 'drizzle-orm';
import type { Preparable, PreparedRead, SqlKit } from './sql-kit.js';

/**
 * A read with `column IN (…)`, prepared once per list length instead of
 * built and parsed on every request. Placeholders are named a0…aN; each
 * length gets its own statement name (PostgreSQL needs them unique). Callers
 * chunk their lists (MAX_PARAMS), which bounds the number of statements.
 */
export function preparedInList<Row>(
  kit: SqlKit,
  name: string,
  build: (placeholders: Placeholder[]) => Preparable<Row>,
): (values: readonly string[]) => Promise<Row[]> {
  const byLength = new Map<number, { read: PreparedRead<Row>; names: string[] }>();
  return async (values) => {
    if (values.length === 0) return [];
    let entry = byLength.get(values.length);
    if (!entry) {
      const names = values.map((_, i) => `a${i}`);
      entry = { read: kit.prepare(build(names.map((n) => sql.placeholder(n))), `${name}_${values.length}`), names };
      byLength.set(values.length, entry);
    }
    const bound: Record<string, unknown> = {};
    for (const [i, n] of entry.names.entries()) bound[n] = values[i];
    return entry.read(bound);
  };
}
