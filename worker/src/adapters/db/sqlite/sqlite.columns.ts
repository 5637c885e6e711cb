import { type AnySQLiteColumn, integer, text } from 'drizzle-orm/sqlite-core';

/**
 * The SQLite / D1 column vocabulary: the same names in mysql.columns.ts and
 * postgres.columns.ts, so a column reads as one line in each dialect's tables
 * and the three files can be read side by side (docs/architecture.md, "A table
 * in three dialects").
 */

export type OnDelete = 'cascade' | 'restrict' | 'set null';

export const timestamp = (name: string) => integer(name, { mode: 'timestamp_ms' });
export const bool = (name: string) => integer(name, { mode: 'boolean' });
/** An id column (UUIDv7, made by the application: docs/architecture.md#rule-5). */
export const uuid = (name: string) => text(name);
/** The primary key of an entity's table. */
export const id = () => uuid('id').primaryKey();
/** A required id pointing at another table's row. */
export const ref = (name: string, to: () => AnySQLiteColumn, onDelete?: OnDelete) =>
  uuid(name)
    .notNull()
    .references(to, onDelete && { onDelete });
export const createdAt = () => timestamp('created_at').notNull();
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: timestamp('updated_at').notNull() });
/** A catalog entry's name and its unique slug (authors, tags). */
export const nameAndSlug = (table: string) => ({
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(`${table}_slug_unique`),
});
