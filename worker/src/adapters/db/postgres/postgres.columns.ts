import { type AnyPgColumn, boolean, timestamp as pgTimestamp, uuid as pgUuid, text } from 'drizzle-orm/pg-core';

/**
 * The PostgreSQL column vocabulary: the names of sqlite.columns.ts, so a
 * column reads as one line in each dialect's tables.
 */

export type OnDelete = 'cascade' | 'restrict' | 'set null';

export const timestamp = (name: string) => pgTimestamp(name, { mode: 'date', precision: 3, withTimezone: true });
export const bool = (name: string) => boolean(name);
/** An id column (UUIDv7, made by the application: docs/architecture.md#rule-5). */
export const uuid = (name: string) => pgUuid(name);
export const id = () => uuid('id').primaryKey();
export const ref = (name: string, to: () => AnyPgColumn, onDelete?: OnDelete) =>
  uuid(name)
    .notNull()
    .references(to, onDelete && { onDelete });
export const createdAt = () => timestamp('created_at').notNull();
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: timestamp('updated_at').notNull() });
export const nameAndSlug = (table: string) => ({
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(`${table}_slug_unique`),
});
