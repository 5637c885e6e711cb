import type * as tables from './sqlite/sqlite.tables.js';

/**
 * A table's row as drizzle reads it: the entity of a feature's port where the
 * stored row is the entity (a tag, an author, an image), so the fields are
 * stated once, in the tables. Feature ports import this file for types only
 * (.dependency-cruiser.mjs, `feature-entities-are-types`): nothing of drizzle
 * or the drivers reaches a domain file at run time. The MySQL and PostgreSQL
 * rows are the same types (drizzle/schema-parity.ts).
 */
export type Row<Name extends keyof typeof tables> = (typeof tables)[Name]['$inferSelect'];
