import path from 'node:path';
import { qwikVite } from '@builder.io/qwik/optimizer';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { HeavyFirstSequencer } from './test/support/heavy-first-sequencer.js';

/**
 * Six projects, all run by `npm test`:
 * - unit: the core with in-memory fakes, the admin's pure helpers, and the
 *   repository's own checks (architecture, cited documents), fast.
 * - node: adapters and the HTTP API against real SQLite, MariaDB, PostgreSQL,
 *   a local directory, s3rver and an SMTP catcher.
 * - workers: the Worker in workerd (D1, R2) through the Cloudflare plugin.
 * - admin: the admin's Qwik components, rendered with @builder.io/qwik/testing,
 *   and its modules whose edges (IndexedDB, the network) a test replaces.
 * - browser: the admin in Debian's Chromium through playwright-core.
 * - timing: the unit and node files that compare costs within a test (linear
 *   time, a free event loop), alone once the others are done.
 * unit, node, workers and admin share one pool, three files at a time; then
 * browser, two at a time; then timing, one file at a time.
 */
const migrations = await readD1Migrations(path.join(import.meta.dirname, 'drizzle/sqlite/migrations'));

// worker-mailer imports `cloudflare:sockets`; on Node that is our shim.
// Vite must process worker-mailer itself (its ESM build; Node alone
// would load the CommonJS one) for the alias to reach that import.
const onNode = {
  resolve: {
    alias: [
      {
        find: 'cloudflare:sockets',
        replacement: path.join(import.meta.dirname, 'worker/src/adapters/mail/node-sockets.shim.ts'),
      },
      {
        find: /^worker-mailer$/,
        replacement: path.join(import.meta.dirname, 'node_modules/worker-mailer/dist/index.mjs'),
      },
    ],
  },
  ssr: { noExternal: ['worker-mailer'] },
};

/** Tests that compare costs measured in the same test: they run alone, once everything else is done. */
const TIMING_UNIT = ['test/unit/*-linear.test.ts'];
const TIMING_NODE = ['test/node/*-linear.test.ts', 'test/node/*-event-loop.test.ts', 'test/node/render-pool.test.ts'];

export default defineConfig({
  test: {
    sequence: { sequencer: HeavyFirstSequencer },
    // Vitest's default on 2 cores is one file at a time; most files wait on servers, databases and
    // Chromium (a whole run kept 2 cores 38% busy), so three run side by side.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: TIMING_UNIT,
          // Pure checks without module mocks or globals: one module graph for all files saves a worker start per file.
          isolate: false,
          // The property tests run thousands of cases: on a loaded 2-core machine they outlast vitest's 5 s.
          testTimeout: 30_000,
        },
      },
      {
        ...onNode,
        test: {
          name: 'node',
          include: ['test/node/**/*.test.ts'],
          exclude: TIMING_NODE,
          setupFiles: ['./test/support/drop-pooled-databases.ts'],
          // One module graph per worker: each file builds its own harnesses, servers and databases and keeps
          // no module state the next file reads (the pooled databases go in the setup file's afterAll, run per
          // file). A worker start and the server's module graph per file cost 25% of the CPU of 40 small files.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Costs compared within one test (linear time, a free event loop, a time limit): alone, after the rest.
        ...onNode,
        test: {
          name: 'timing',
          include: [...TIMING_UNIT, ...TIMING_NODE],
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                JWT_SECRET: 'workerd-test-secret-0123456789abcdef',
                // No SMTP server in workerd: the tests read e-mails from the log mailer.
                ALLOW_LOG_MAILER: 'true',
              },
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts'],
          setupFiles: ['./test/workers/apply-migrations.ts'],
          globalSetup: ['./test/workers/global-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // Qwik components through @builder.io/qwik/testing (createDOM): the
        // optimizer turns their `$` closures into what the runtime loads.
        plugins: [qwikVite({ srcDir: path.join(import.meta.dirname, 'admin-qwik/src'), lint: false })],
        test: {
          name: 'admin',
          include: ['test/admin/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // After the others, two at a time: each file drives a server and a Chromium, and typing tests
          // starved of CPU beside the API suites (a file took four times as long) are not what they test.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          // Each file starts its own server and Chromium: a worker of its own per file only added its start
          // (about 0.5 s of CPU each, as Vitest reports it).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
