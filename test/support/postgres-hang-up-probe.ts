/**
 * Run as a child process by test/node/postgres-write-after-close.test.ts:
 * `node postgres-hang-up-probe.ts <postgres.js entry> <database URL>`.
 * Opens a transaction the way drizzle does (`sql.begin`), prints `in-flight`
 * while a statement runs, and waits for the test to hang the connection up.
 * Then it prints how the transaction ended and whether the pool still works,
 * and exits 0 — unless the driver throws where nothing can catch it.
 */
import type postgresType from 'postgres';

const [entry, url] = process.argv.slice(2) as [string, string];
const { default: postgres } = (await import(entry)) as { default: typeof postgresType };
const sql = postgres(url, { max: 2, onnotice: () => undefined, connect_timeout: 5 });
const transaction = sql.begin(async (tx) => {
  await tx`select 1`;
  process.stdout.write('in-flight\n');
  await tx`select pg_sleep(30)`;
});
const ended = await transaction.then(
  () => 'committed',
  (err: { code?: string }) => err.code ?? 'error',
);
const [row] = await sql`select 2 as two`;
process.stdout.write(`${JSON.stringify({ transaction: ended, after: row?.two })}\n`);
await sql.end({ timeout: 1 });
