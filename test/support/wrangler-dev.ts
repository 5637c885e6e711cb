import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildStamp } from '../../scripts/lib/build-info.ts';
import { REPO_ROOT } from './paths.js';
import { freePort, type ServerProcess } from './server-process.js';

const WRANGLER = path.join(REPO_ROOT, 'node_modules/.bin/wrangler');
// No network: wrangler must not phone home from tests.
const OFFLINE = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

/** `wrangler dev` on 127.0.0.1 at the given ports, with its state in `state`, and no interactive session. */
export function localDevArgs(port: number, inspector: number, state: string): string[] {
  return [
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    state,
    '--show-interactive-dev-session=false',
  ];
}

const MIGRATIONS = path.join(REPO_ROOT, 'drizzle/sqlite/migrations');
const DONE = '.migrated';

/**
 * A fresh persist directory whose local D1 has every migration applied.
 * `wrangler d1 migrations apply` does it once per set of migrations and
 * wrangler version, into a directory that every test process then copies:
 * applying them took 15 s of CPU on the 2-core CI machine, and five test
 * files start `wrangler dev`. The copy is made only once wrangler has exited,
 * and the first process to finish its directory keeps it (a rename).
 */
async function migratedState(env: NodeJS.ProcessEnv): Promise<string> {
  const key = createHash('sha256');
  key.update(readFileSync(path.join(REPO_ROOT, 'node_modules/wrangler/package.json')));
  for (const name of readdirSync(MIGRATIONS)
    .filter((n) => n.endsWith('.sql'))
    .sort()) {
    key.update(name).update(readFileSync(path.join(MIGRATIONS, name)));
  }
  const template = path.join(tmpdir(), `cms-d1-migrated-${key.digest('hex').slice(0, 16)}`);
  if (!existsSync(path.join(template, DONE))) {
    const made = await mkdtemp(`${template}-making-`);
    const migrate = spawnSync(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', made], {
      cwd: REPO_ROOT,
      env,
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`d1 migrations apply failed:\n${migrate.stdout}\n${migrate.stderr}`);
    await writeFile(path.join(made, DONE), '');
    // Another process may have kept its own first: then this one goes.
    await rename(made, template).catch(() => rm(made, { recursive: true, force: true }));
  }
  const state = await mkdtemp(path.join(tmpdir(), 'cms-wrangler-'));
  await cp(template, state, { recursive: true, filter: (from) => path.basename(from) !== DONE });
  return state;
}

/**
 * The Worker under `wrangler dev` (what `npm run dev` runs): local D1, R2 and
 * Durable Objects in a fresh temporary directory, the D1 migrations applied
 * first, the admin from admin-qwik/dist. Shaped like ServerProcess so the
 * browser helpers (mail links from the log mailer's output) work on it.
 */
export async function startWranglerDev(
  vars: Record<string, string> = {},
  /** More arguments for `wrangler dev` (`--test-scheduled`). */
  extraArgs: string[] = [],
): Promise<ServerProcess & { state: string; cleanup(): Promise<void> }> {
  const env = { ...process.env, ...OFFLINE };
  const state = await migratedState(env);
  const port = await freePort();
  const inspector = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const settings: Record<string, string> = {
    JWT_SECRET: randomBytes(32).toString('base64url'),
    PUBLIC_URL: url,
    // The tests read e-mail links from the log, as a developer does.
    ALLOW_LOG_MAILER: 'true',
    ...vars,
  };
  const args = [
    'dev',
    ...localDevArgs(port, inspector, state),
    '--define',
    `__CMS_BUILD__:${JSON.stringify(buildStamp())}`,
    ...Object.entries(settings).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
    ...extraArgs,
  ];
  const child = spawn(WRANGLER, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev was not ready in time:\n${output}`)), 90_000);
    const poll = setInterval(async () => {
      if (!/Ready on/.test(output)) return;
      try {
        if ((await fetch(`${url}/healthz`)).ok) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve();
        }
      } catch {
        // not listening yet
      }
    }, 200);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited with ${code}:\n${output}`));
    });
  });
  // wrangler starts workerd as a child: stop the whole process group.
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        child.kill(signal);
      }
    }
    return exited;
  };
  return {
    url,
    /** The persist directory: wrangler's `--local --persist-to` commands reach the same D1 and R2. */
    state,
    child,
    output: () => output,
    exited,
    stop,
    async cleanup() {
      await stop();
      await rm(state, { recursive: true, force: true });
    },
  };
}
