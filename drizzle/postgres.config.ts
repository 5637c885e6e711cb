import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes the migrations; the app applies them at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './drizzle/postgres/tables.ts',
  out: './drizzle/postgres/migrations',
  breakpoints: true,
});
