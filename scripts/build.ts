import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode } from './build-node.ts';

/**
 * `npm run build`: the admin's static files and the Node bundle, each only
 * when stale (`--force` rebuilds). `--admin` builds the admin alone (what
 * `npm run deploy` needs before wrangler bundles the Worker itself); `--node`
 * builds the Node bundle alone (what `npm test` runs beside the admin build).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');

if (!process.argv.includes('--node')) {
  const admin = spawnSync(
    process.execPath,
    [path.join(root, 'scripts/build-admin.ts'), ...(force ? ['--force'] : [])],
    {
      stdio: 'inherit',
    },
  );
  if (admin.status !== 0) process.exit(admin.status ?? 1);
}
if (!process.argv.includes('--admin')) {
  const built = await buildNode({ force });
  console.log(built ? 'Node bundle built: dist/node/server.mjs' : 'Node bundle up to date');
}
