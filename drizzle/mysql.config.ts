import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes the migrations; the app applies them at start-up.
export default defineConfig({
  dialect: 'mysql',
  schema: './drizzle/mysql/tables.ts',
  out: './drizzle/mysql/migrations',
  breakpoints: true,
});
