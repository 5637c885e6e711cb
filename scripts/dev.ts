import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from './lib/build-info.ts';

/**
 * `npm run dev`: the Worker under `wrangler dev` with local D1, R2 and
 * Durable Objects (state in .wrangler/), migrations applied first.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wrangler = path.join(root, 'node_modules/.bin/wrangler');

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Local secrets live in .dev.vars (git-ignored); make one on first run.
const devVars = path.join(root, '.dev.vars');
if (!existsSync(devVars)) {
  writeFileSync(devVars, `JWT_SECRET=${randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
  console.log('Wrote .dev.vars with a generated JWT_SECRET');
}

run(process.execPath, [path.join(root, 'scripts/build-admin.ts')]);
run(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local']);
// Locally, e-mails go to the terminal unless .dev.vars sets SMTP_URL (a
// deployed Worker refuses to start that way: ALLOW_LOG_MAILER).
run(wrangler, [
  'dev',
  '--var',
  'ALLOW_LOG_MAILER:true',
  '--define',
  `__CMS_BUILD__:${JSON.stringify(buildStamp())}`,
  ...process.argv.slice(2),
]);
