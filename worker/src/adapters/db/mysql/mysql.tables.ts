/**
 * Every MySQL / MariaDB table, by property name: what drizzle-kit reads
 * (drizzle/mysql/tables.ts) and what the kit hands the repositories.
 */
export * from './mysql.content.tables.js';
export * from './mysql.operations.tables.js';
