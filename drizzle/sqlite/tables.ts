// drizzle-kit's entry point. The tables live with the adapter that bundles
// them, because application code may not import from outside worker/src.
export * from '../../worker/src/adapters/db/sqlite/sqlite.tables.js';
