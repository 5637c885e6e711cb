import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from './lib/build-info.ts';
import { devPublicUrl } from './lib/dev-public-url.ts';
import { exitAs, runForwarding, runStep } from './lib/forward-signals.ts';

/**
 * `npm run dev`: the Worker under `wrangler dev` with local D1, R2 and
 * Durable Objects (state in .wrangler/, or wherever `--persist-to` says),
 * migrations applied first. Extra arguments go to `wrangler dev`.
 *
 * wrangler runs as a child of this process, so every stop signal is passed on
 * to it and this process exits only once it (and the workerd it stops) has
 * gone: a SIGTERM to `npm run dev` leaves nothing serving (the npm script
 * `exec`s this, so npm's forwarded signal lands here).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wrangler = path.join(root, 'node_modules/.bin/wrangler');
const args = process.argv.slice(2);

// Local secrets live in .dev.vars (git-ignored); make one on first run.
const devVars = path.join(root, '.dev.vars');
if (!existsSync(devVars)) {
  writeFileSync(devVars, `JWT_SECRET=${randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
  console.log('Wrote .dev.vars with a generated JWT_SECRET');
}

/** `--persist-to DIR` (or `=DIR`) among the arguments: the migrations go where `wrangler dev` will read. */
function persistTo(argv: string[]): string[] {
  const i = argv.findIndex((a) => a === '--persist-to' || a.startsWith('--persist-to='));
  if (i < 0) return [];
  const arg = argv[i] as string;
  return arg.includes('=') ? [arg] : argv[i + 1] === undefined ? [] : ['--persist-to', argv[i + 1] as string];
}

await runStep(process.execPath, [path.join(root, 'scripts/build-admin.ts')], { cwd: root });
await runStep(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local', ...persistTo(args)], { cwd: root });
// Locally, e-mails go to the terminal unless .dev.vars sets SMTP_URL (a
// deployed Worker refuses to start that way: ALLOW_LOG_MAILER).
// Links follow the port and address served (wrangler.toml's PUBLIC_URL is the default port's).
const publicUrl = devPublicUrl(args);
const vars = ['--var', 'ALLOW_LOG_MAILER:true', ...(publicUrl ? ['--var', `PUBLIC_URL:${publicUrl}`] : [])];
exitAs(
  await runForwarding(
    wrangler,
    ['dev', ...vars, '--define', `__CMS_BUILD__:${JSON.stringify(buildStamp())}`, ...args],
    { cwd: root },
  ),
);
