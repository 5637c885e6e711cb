import { type AnyMySqlColumn, boolean, char, datetime, varchar } from 'drizzle-orm/mysql-core';

/**
 * The MySQL / MariaDB column vocabulary: the names of sqlite.columns.ts, so a
 * column reads as one line in each dialect's tables.
 */

export type OnDelete = 'cascade' | 'restrict' | 'set null';

export const timestamp = (name: string) => datetime(name, { mode: 'date', fsp: 3 });
export const bool = (name: string) => boolean(name);
/** A bounded string: MySQL needs a length to index a column (the other dialects use text). */
export const str = (name: string, length: number) => varchar(name, { length });
/** An id column (UUIDv7, made by the application: docs/architecture.md#rule-5). */
export const uuid = (name: string) => char(name, { length: 36 });
export const id = () => uuid('id').primaryKey();
export const ref = (name: string, to: () => AnyMySqlColumn, onDelete?: OnDelete) =>
  uuid(name)
    .notNull()
    .references(to, onDelete && { onDelete });
export const createdAt = () => timestamp('created_at').notNull();
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: timestamp('updated_at').notNull() });
export const nameAndSlug = (table: string) => ({
  name: str('name', 255).notNull(),
  slug: str('slug', 255).notNull().unique(`${table}_slug_unique`),
});
