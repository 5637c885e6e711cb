import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from './lib/build-info.ts';

/**
 * `npm run deploy`: builds the admin, applies D1 migrations to the remote
 * database, then deploys the Worker stamped with this commit. Extra arguments
 * go to `wrangler deploy` (e.g. `--dry-run --outdir dist/worker`, which skips
 * the remote migration step).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wrangler = path.join(root, 'node_modules/.bin/wrangler');
const extra = process.argv.slice(2);
const dryRun = extra.includes('--dry-run');

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(process.execPath, [path.join(root, 'scripts/build-admin.ts')]);
if (!dryRun) run(wrangler, ['d1', 'migrations', 'apply', 'DB', '--remote']);
run(wrangler, ['deploy', '--define', `__CMS_BUILD__:${JSON.stringify(buildStamp())}`, ...extra]);
