import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
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
  const state = await mkdtemp(path.join(tmpdir(), 'cms-wrangler-'));
  const env = { ...process.env, ...OFFLINE };
  const migrate = spawnSync(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`d1 migrations apply failed:\n${migrate.stdout}\n${migrate.stderr}`);
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
