import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode } from './build-node.ts';

/**
 * `npm test`: the whole suite. Checks format and lint first (`biome ci .`,
 * seconds, so a stray format error fails before the minutes of tests) and
 * the import rules (dependency-cruiser, .dependency-cruiser.mjs),
 * builds what the tests serve (the admin's static files for workerd and the
 * browser, the Node bundle for the end-to-end server test), checks that the
 * Worker's generated Env matches wrangler.toml (`wrangler types --check`), type-checks
 * (server, admin and scripts), then runs every vitest project: unit, admin
 * (Qwik components), node (SQLite, MariaDB, PostgreSQL, s3rver, SMTP),
 * workers (workerd with D1 and R2) and browser (Chromium). Extra arguments
 * go to vitest, e.g. `npm test -- --project node`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string): string => path.join(root, 'node_modules/.bin', name);

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(bin('biome'), ['ci', '.']);
// The import rules (.dependency-cruiser.mjs): seconds, so a wrong-way import fails before the builds.
run(bin('depcruise'), ['worker/src', 'admin-qwik/src']);
run(process.execPath, [path.join(root, 'scripts/build-admin.ts')]);
await buildNode();
// The Worker's Env, generated from wrangler.toml, must be current before it is type-checked.
run(process.execPath, [path.join(root, 'scripts/cf-types.ts'), '--check']);
run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
run(bin('tsc'), ['-p', 'admin-qwik/tsconfig.json', '--noEmit']);
run(bin('tsc'), ['-p', 'scripts/tsconfig.json']);
run(bin('vitest'), ['run', ...process.argv.slice(2)]);
