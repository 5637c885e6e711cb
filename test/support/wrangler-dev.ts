import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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

const execFileAsync = promisify(execFile);
const MIGRATIONS = path.join(REPO_ROOT, 'drizzle/sqlite/migrations');
const DONE = '.migrated';

/**
 * A fresh persist directory whose local D1 has every migration applied.
 * `wrangler d1 migrations apply` does it once per set of migrations,
 * wrangler version and wrangler.toml, into a directory that every test process then copies:
 * applying them took 15 s of CPU on the 2-core CI machine, and five test
 * files start `wrangler dev`, several at once. The first process takes a
 * lock (a directory) and makes it; the others wait for its marker, and make
 * their own if the maker is gone without one.
 */
async function migratedState(env: NodeJS.ProcessEnv): Promise<string> {
  const key = createHash('sha256');
  // wrangler.toml too: the local D1's file is named after the database it declares.
  for (const file of ['node_modules/wrangler/package.json', 'wrangler.toml'])
    key.update(readFileSync(path.join(REPO_ROOT, file)));
  for (const name of readdirSync(MIGRATIONS)
    .filter((n) => n.endsWith('.sql'))
    .sort()) {
    key.update(name).update(readFileSync(path.join(MIGRATIONS, name)));
  }
  const template = path.join(tmpdir(), `cms-d1-migrated-${key.digest('hex').slice(0, 16)}`);
  const done = path.join(template, DONE);
  if (!existsSync(done)) {
    const lock = `${template}.lock`;
    if (
      await mkdir(lock).then(
        () => true,
        () => false,
      )
    ) {
      try {
        await makeMigrated(template, env);
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
    } else {
      await waitForMaker(done, lock);
      if (!existsSync(done)) await makeMigrated(template, env);
    }
  }
  const state = await mkdtemp(path.join(tmpdir(), 'cms-wrangler-'));
  await cp(template, state, { recursive: true, filter: (from) => path.basename(from) !== DONE });
  return state;
}

/** Applies the migrations into a directory of its own, then keeps it as `template` unless one is there already. */
async function makeMigrated(template: string, env: NodeJS.ProcessEnv): Promise<void> {
  const made = await mkdtemp(`${template}-making-`);
  try {
    await execFileAsync(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', made], {
      cwd: REPO_ROOT,
      env,
      encoding: 'utf8',
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    await rm(made, { recursive: true, force: true });
    throw new Error(`d1 migrations apply failed:\n${stdout}\n${stderr}`);
  }
  await writeFile(path.join(made, DONE), '');
  await rename(made, template).catch(() => rm(made, { recursive: true, force: true }));
}

/** Lets a lock left by a killed run go: no maker takes this long. */
const STALE_LOCK_MS = 120_000;

/**
 * Until `done` exists or the maker is gone (its lock removed, or stale),
 * told by the events of the directory both live in; at most until the lock
 * turns stale.
 */
function waitForMaker(done: string, lock: string): Promise<void> {
  const lockAge = () => {
    try {
      return Date.now() - statSync(lock).mtimeMs;
    } catch {
      return Number.POSITIVE_INFINITY; // the lock is gone
    }
  };
  const settled = () => existsSync(done) || lockAge() > STALE_LOCK_MS;
  return new Promise((resolve) => {
    const finish = () => {
      watcher.close();
      clearTimeout(deadline);
      resolve();
    };
    const watcher = watch(path.dirname(lock), () => settled() && finish()).on('error', finish);
    const deadline = setTimeout(finish, Math.max(0, STALE_LOCK_MS - lockAge()));
    if (settled()) finish();
  });
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
