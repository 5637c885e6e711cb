import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from './lib/build-info.ts';
import { patchPostgresSource } from './lib/postgres-patches.ts';
import { isStale } from './lib/stale.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NODE_BUNDLE = path.join(root, 'dist/node/server.mjs');
/** The render thread's entry (adapters/image/render.worker.ts); the server starts it from beside itself. */
export const RENDER_WORKER_BUNDLE = path.join(root, 'dist/node/render-worker.mjs');
/** The article bodies' render thread (wiring/html-render.thread.ts), likewise beside the server. */
export const HTML_RENDER_WORKER_BUNDLE = path.join(root, 'dist/node/html-render-worker.mjs');
/** The operator's command-line tool (worker/src/entry.cli.ts), run by scripts/cms.ts. */
export const CLI_BUNDLE = path.join(root, 'dist/node/cli.mjs');

// Native or server-only drivers stay in node_modules; everything else is
// bundled, so that worker-mailer's `cloudflare:sockets` import can be
// pointed at the Node shim. postgres.js is bundled too, with its queue and
// its write after close fixed (docs/postgres-driver.md): a release's `npm ci --omit=dev` then cannot
// bring back the unpatched file.
const EXTERNAL = ['better-sqlite3', 'mysql2', 'mysql2/*'];

/** Serves postgres.js's src/queue.js and src/connection.js to the bundle with the pinned fixes applied. */
const postgresPatches = {
  name: 'postgres-patches',
  setup(build: import('esbuild').PluginBuild) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]postgres[\\/]src[\\/](queue|connection)\.js$/ }, (args) => ({
      contents: patchPostgresSource(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};

/**
 * Bundles the Node target into dist/node/server.mjs, its render threads into
 * dist/node/render-worker.mjs and dist/node/html-render-worker.mjs, and the operator's tool into dist/node/cli.mjs,
 * when their sources changed.
 */
export async function buildNode({ force = false } = {}) {
  const inputs = [
    path.join(root, 'worker/src'),
    path.join(root, 'package.json'),
    path.join(root, 'scripts/build-node.ts'),
    path.join(root, 'scripts/lib/postgres-patches.ts'),
  ];
  if (
    !force &&
    !isStale(NODE_BUNDLE, inputs) &&
    existsSync(RENDER_WORKER_BUNDLE) &&
    existsSync(HTML_RENDER_WORKER_BUNDLE) &&
    existsSync(CLI_BUNDLE)
  )
    return false;
  const esbuild = await import('esbuild');
  // Chunk names carry content hashes: empty the folder so that old chunks
  // do not pile up (and travel in a release).
  rmSync(path.dirname(NODE_BUNDLE), { recursive: true, force: true });
  await esbuild.build({
    entryPoints: {
      // entry.boot.ts turns the compile cache on, then imports entry.node.ts.
      server: path.join(root, 'worker/src/entry.boot.ts'),
      'render-worker': path.join(root, 'worker/src/adapters/image/render.worker.ts'),
      'html-render-worker': path.join(root, 'worker/src/wiring/html-render.thread.ts'),
      cli: path.join(root, 'worker/src/entry.cli.ts'),
    },
    outdir: path.dirname(NODE_BUNDLE),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Code reached only through import() (the other dialects' drivers and
    // kits, mail, …) goes to chunks that load on first use: a SQLite server
    // neither compiles nor loads mysql2 or postgres.js at start-up
    // (docs/benchmarks.md, start-up and memory).
    splitting: true,
    // Beside the entries, not in a sub-folder: code that finds files next to
    // itself (`new URL('./render-worker.mjs', import.meta.url)` in
    // wiring/node.ts) may land in a chunk.
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    external: EXTERNAL,
    plugins: [postgresPatches],
    alias: { 'cloudflare:sockets': path.join(root, 'worker/src/adapters/mail/node-sockets.shim.ts') },
    define: { __CMS_BUILD__: JSON.stringify(buildStamp()) },
    // Some bundled CommonJS code calls require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __cmsCreateRequire } from 'node:module'; const require = __cmsCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildNode({ force: process.argv.includes('--force') });
}
