/**
 * Every PostgreSQL table, by property name: what drizzle-kit reads
 * (drizzle/postgres/tables.ts) and what the kit hands the repositories.
 */
export * from './postgres.content.tables.js';
export * from './postgres.operations.tables.js';
