/**
 * Every SQLite / D1 table, by property name: what drizzle-kit reads
 * (drizzle/sqlite/tables.ts) and what the kit hands the repositories.
 */
export * from './sqlite.content.tables.js';
export * from './sqlite.operations.tables.js';
