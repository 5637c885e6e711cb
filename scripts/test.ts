import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm test`: the whole suite. Checks format and lint (`biome ci .`) and the
 * import rules (dependency-cruiser, .dependency-cruiser.mjs) first, seconds,
 * so a stray format error or a wrong-way import fails before the minutes of
 * tests; then,
 * side by side (each is mostly one core's work, and they need nothing of
 * each other): builds what the tests serve (the admin's static files for
 * workerd and the browser, the Node bundle for the end-to-end server test),
 * checks that the Worker's generated Env matches wrangler.toml (`wrangler
 * types --check`) and type-checks (server, admin and scripts). Then runs
 * every vitest project: unit, admin (Qwik components), node (SQLite,
 * MariaDB, PostgreSQL, s3rver, SMTP), workers (workerd with D1 and R2),
 * browser (Chromium) and timing (cost comparisons, alone at the end). Extra arguments go to vitest, e.g. `npm test --
 * --project node`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string): string => path.join(root, 'node_modules/.bin', name);
const script = (name: string): string[] => [process.execPath, path.join(root, 'scripts', name)];
/**
 * TypeScript 7 (the native compiler, `typescript7` in package.json) type-checks: the three checks took
 * 38 s of CPU against 109 with TypeScript 5.9, which stays as `typescript` for the tools that call its
 * JavaScript API (openapi-typescript, dependency-cruiser). Both versions have the same `tsc` bin name,
 * so this one is named by its path.
 */
const tsc = path.join(root, 'node_modules/typescript7/bin/tsc');

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs a step with its output held back, so that steps side by side print one after another. */
function step([cmd, ...args]: string[]): Promise<{ label: string; status: number; output: string }> {
  const label = [path.basename(cmd!), ...args.map((a) => path.relative(root, a) || a)].join(' ');
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => resolve({ label, status: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code) => resolve({ label, status: code ?? 1, output }));
  });
}

run(bin('biome'), ['ci', '.']);
run(bin('depcruise'), ['worker/src', 'admin-qwik/src']);
const results = await Promise.all([
  step(script('build-admin.ts')),
  step([...script('build.ts'), '--node']),
  // The Worker's Env, generated from wrangler.toml, must be current: the type-check reads it.
  step([...script('cf-types.ts'), '--check']),
  step([tsc, '-p', 'tsconfig.json', '--noEmit']),
  step([tsc, '-p', 'admin-qwik/tsconfig.json', '--noEmit']),
  step([tsc, '-p', 'scripts/tsconfig.json']),
]);
for (const { label, status, output } of results) {
  process.stdout.write(`\n> ${label}: ${status === 0 ? 'ok' : `failed (${status})`}\n${output}`);
}
const failed = results.find((r) => r.status !== 0);
if (failed) process.exit(failed.status);
run(bin('vitest'), ['run', ...process.argv.slice(2)]);
