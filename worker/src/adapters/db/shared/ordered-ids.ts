import { type Column, type SQL, sql, type Table } from 'drizzle-orm';
import type { SqlKit } from './sql-kit.js';

/**
 * A correlated subquery that reads a row's ordered links (an article's
 * authors or tags) in the row's own statement: `position:id` pairs joined
 * with commas, or NULL when there are none. One statement instead of one
 * per link table is what makes a read cheap on a server database, where
 * each statement is a round trip (docs/benchmarks.md).
 *
 * The pairs carry their position and `idsInOrder` sorts them, so no
 * dialect's aggregate order matters (SQLite's group_concat promises none).
 * Ids are UUIDs and positions integers: neither holds `:` or `,`. MySQL's
 * GROUP_CONCAT stops at group_concat_max_len, which its kit raises for
 * every connection (50 links of 40 bytes pass the default 1,024 otherwise).
 */
export function orderedIdsSql(
  kit: Pick<SqlKit, 'dialect'>,
  link: { table: Table; position: Column; id: Column; owner: Column },
  ownerId: Column,
): SQL<string | null> {
  const { table, position, id, owner } = link;
  switch (kit.dialect) {
    case 'postgres':
      return sql<
        string | null
      >`(select string_agg(${position}::text || ':' || ${id}::text, ',') from ${table} where ${owner} = ${ownerId})`;
    case 'mysql':
      return sql<
        string | null
      >`(select group_concat(concat(${position}, ':', ${id}) separator ',') from ${table} where ${owner} = ${ownerId})`;
    default:
      return sql<
        string | null
      >`(select group_concat(${position} || ':' || ${id}, ',') from ${table} where ${owner} = ${ownerId})`;
  }
}

/** The ids of `orderedIdsSql`'s text, by position. */
export function idsInOrder(text: string | null): string[] {
  if (text === null || text === '') return [];
  const pairs = text.split(',').map((pair) => {
    const at = pair.indexOf(':');
    return { position: Number(pair.slice(0, at)), id: pair.slice(at + 1) };
  });
  pairs.sort((a, b) => a.position - b.position);
  return pairs.map((p) => p.id);
}

/**
 * Like orderedIdsSql, with the linked rows' own fields: a JSON array of
 * objects (`p`, the link's position, and `fields` by name) of the rows
 * `target` joins to the links on `on`, or NULL (SQLite: `[]`) for none. So a
 * read that shows what it links (an article's tags with their names and
 * slugs) needs no second statement. JSON, because names may hold any
 * character a separator could; every dialect escapes it for us.
 */
export function orderedRowsSql(
  kit: Pick<SqlKit, 'dialect'>,
  link: { table: Table; position: Column; owner: Column },
  target: { table: Table; on: SQL; fields: Record<string, Column> },
  ownerId: Column,
): SQL<unknown> {
  const pairs = sql.join(
    [
      sql`'p', ${link.position}`,
      ...Object.entries(target.fields).map(([name, c]) => sql`${sql.raw(`'${name}'`)}, ${c}`),
    ],
    sql`, `,
  );
  const from = sql`from ${link.table} inner join ${target.table} on ${target.on} where ${link.owner} = ${ownerId}`;
  switch (kit.dialect) {
    case 'postgres':
      // As text: the driver would parse json itself, and the parser below reads one form.
      return sql`(select json_agg(json_build_object(${pairs}))::text ${from})`;
    case 'mysql':
      return sql`(select json_arrayagg(json_object(${pairs})) ${from})`;
    default:
      return sql`(select json_group_array(json_object(${pairs})) ${from})`;
  }
}

/**
 * The rows of `orderedRowsSql`, by position, without `p`. MySQL's driver
 * hands a JSON value over parsed, MariaDB's and the others as text.
 */
export function rowsInOrder<T>(value: unknown): T[] {
  if (value === null || value === undefined || value === '') return [];
  const rows = (typeof value === 'string' ? JSON.parse(value) : value) as ({ p: number } & T)[];
  rows.sort((a, b) => a.p - b.p);
  return rows.map(({ p: _p, ...row }) => row as T);
}
