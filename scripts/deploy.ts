import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from './lib/build-info.ts';
import { d1FromToml } from './lib/wrangler-toml.ts';

/**
 * `npm run deploy` (also what the Deploy to Cloudflare button runs): builds
 * the admin, makes sure the D1 database exists, applies its migrations, then
 * deploys the Worker stamped with this commit. Extra arguments go to
 * `wrangler deploy` (e.g. `--dry-run --outdir dist/worker`, which skips the
 * remote steps).
 *
 * wrangler.toml names the database and the bucket without ids: `wrangler
 * deploy` provisions what is missing and links it by name. The database is
 * created here first, by that name, when it does not exist yet, so that the
 * migrations are in place before the first Worker serves a request.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wrangler = path.join(root, 'node_modules/.bin/wrangler');
const extra = process.argv.slice(2);
const dryRun = extra.includes('--dry-run');

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function ensureDatabase(): void {
  const { name, pinned } = d1FromToml(readFileSync(path.join(root, 'wrangler.toml'), 'utf8'));
  if (pinned) return;
  const list = spawnSync(wrangler, ['d1', 'list', '--json'], { cwd: root, encoding: 'utf8' });
  if (list.status !== 0) {
    process.stderr.write(list.stderr);
    process.exit(list.status ?? 1);
  }
  const databases = JSON.parse(list.stdout) as { name: string }[];
  if (databases.some((db) => db.name === name)) return;
  console.log(`Creating the D1 database ${name} (first deploy)`);
  run(wrangler, ['d1', 'create', name]);
}

run(process.execPath, [path.join(root, 'scripts/build-admin.ts')]);
if (!dryRun) {
  ensureDatabase();
  run(wrangler, ['d1', 'migrations', 'apply', 'DB', '--remote']);
}
run(wrangler, ['deploy', '--define', `__CMS_BUILD__:${JSON.stringify(buildStamp())}`, ...extra]);
