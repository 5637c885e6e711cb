import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes the migrations; the app applies them at start-up.
export default defineConfig({
  dialect: 'sqlite',
  schema: './drizzle/sqlite/tables.ts',
  out: './drizzle/sqlite/migrations',
  breakpoints: true,
});
