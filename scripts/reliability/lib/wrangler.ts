import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, onCleanup } from '../../bench/lib/processes.ts';
import { buildStamp } from '../../lib/build-info.ts';
import { tempDir } from './stack.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const wrangler = path.join(root, 'node_modules/.bin/wrangler');
const OFFLINE = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

/**
 * `wrangler dev` as `npm run dev` runs it (local D1, R2 and Durable Objects),
 * but with its state in a temp directory, on a free port, offline, and with a
 * JWT secret of its own. Killed as a process group, workerd included.
 */
export interface WranglerDev {
  url: string;
  dir: string;
  jwtSecret: string;
  log(): string;
  stop(): Promise<void>;
}

export async function wranglerDev({ timeoutMs = 90_000 } = {}): Promise<WranglerDev> {
  const dir = tempDir('wrangler');
  const env = { ...process.env, ...OFFLINE };
  const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', dir], {
    cwd: root,
    env,
    encoding: 'utf8',
    input: 'y\n',
  });
  if (migrate.status !== 0)
    throw new Error(`wrangler d1 migrations apply failed:\n${(migrate.stdout + migrate.stderr).slice(-2000)}`);
  const port = await freePort();
  const jwtSecret = randomBytes(32).toString('hex');
  const child = spawn(
    wrangler,
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      dir,
      '--var',
      `JWT_SECRET:${jwtSecret}`,
      '--var',
      'PUBLIC_URL:http://127.0.0.1',
      // The run reads e-mail codes from the log.
      '--var',
      'ALLOW_LOG_MAILER:true',
      '--define',
      `__CMS_BUILD__:${JSON.stringify(buildStamp())}`,
      '--show-interactive-dev-session=false',
    ],
    { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (d: Buffer) => {
    output += d;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const kill = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // gone
    }
  };
  onCleanup(() => kill('SIGKILL'));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output.slice(-2000)}`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      kill('SIGKILL');
      throw new Error(`wrangler dev did not become ready within ${timeoutMs / 1000} s:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    dir,
    jwtSecret,
    log: () => output,
    async stop() {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
