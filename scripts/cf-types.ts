import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run cf:types`: writes the Worker's `Env` (bindings, vars, secrets)
 * from wrangler.toml into worker/src/worker-configuration.d.ts, the one
 * place the Worker's bindings are typed. `-- --check` (run by `npm test`)
 * fails while the file is stale, without rewriting it.
 *
 * Fixed arguments, so the file depends only on what is committed:
 * - `--include-runtime=false`: the runtime types stay @cloudflare/workers-types
 *   (tsconfig.json), which the vitest plugin's types build on too.
 * - `--strict-vars=false`: vars are `string`, not their literal default, since
 *   an operator changes them.
 * - `--env-file=.dev.vars.example`: the secrets' names come from the committed
 *   example, not from a developer's own .dev.vars.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WORKER_TYPES_FILE = 'worker/src/worker-configuration.d.ts';

const result = spawnSync(
  path.join(root, 'node_modules/.bin/wrangler'),
  [
    'types',
    WORKER_TYPES_FILE,
    '--include-runtime=false',
    '--strict-vars=false',
    '--env-file=.dev.vars.example',
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false' },
  },
);
if (result.status !== 0 && process.argv.includes('--check'))
  console.error(
    `${WORKER_TYPES_FILE} is stale: run \`npm run cf:types\` after changing wrangler.toml or .dev.vars.example`,
  );
process.exit(result.status ?? 1);
