import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';
import { commandOf, descendants, isAlive, type NpmRun, portAccepts, spawnNpm } from '../support/process-tree.js';
import { freePort } from '../support/server-process.js';
import { localDevArgs } from '../support/wrangler-dev.js';

/**
 * A process manager (systemd, a container runtime, a terminal's kill) often
 * signals only the PID it started: here `npm start` or `npm run dev`. Each
 * must then stop everything it started, the server on its port included,
 * within 5 s.
 */
const STOP_WITHIN_MS = 5_000;

async function waitForHealth(url: string, run: NpmRun): Promise<void> {
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`npm exited before serving:\n${run.output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * SIGTERM to npm's PID alone; within 5 s npm has exited, the port is closed
 * and no process npm started is left (a helper such as esbuild's service may
 * take a moment after its parent to notice and exit: waited for, in the 5 s).
 */
async function stopsEverything(run: NpmRun, port: number): Promise<void> {
  const started = descendants(run.child.pid as number);
  expect(started.length).toBeGreaterThan(0);
  const deadline = Date.now() + STOP_WITHIN_MS;
  run.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), STOP_WITHIN_MS);
  });
  const outcome = await Promise.race([run.exited, late]);
  clearTimeout(timer);
  expect(outcome, `npm did not exit within ${STOP_WITHIN_MS} ms:\n${run.output()}`).not.toBe('late');
  expect(await portAccepts(port)).toBe(false);
  while (started.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(started.filter(isAlive).map(commandOf), 'processes left running').toEqual([]);
}

describe('npm scripts stop when their PID is signalled', () => {
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  };
  let dir: string;
  beforeAll(async () => {
    // A prepared build, as `npm test` leaves it: `npm start` then only checks it is current.
    const built = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build.ts')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    dir = await mkdtemp(path.join(tmpdir(), 'cms-npm-stop-'));
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('npm start: the server stops and nothing is left', async () => {
    const port = await freePort();
    const run = spawnNpm(['start'], REPO_ROOT, {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dir, 'start/cms.db')}`,
      STORAGE_URL: `file:${path.join(dir, 'start/uploads')}`,
      ACTIVITY_LOG_FILE: path.join(dir, 'start/activity.ndjson'),
      JWT_SECRET: randomBytes(32).toString('base64url'),
    });
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, run);
      await stopsEverything(run, port);
      expect(run.output()).toContain('"stopping"');
    } finally {
      run.killGroup();
    }
  }, 60_000);

  it('npm run dev: wrangler and workerd stop and nothing is left', async () => {
    const [port, inspector] = [await freePort(), await freePort()];
    const state = path.join(dir, 'wrangler');
    const run = spawnNpm(
      [
        'run',
        'dev',
        '--',
        ...localDevArgs(port, inspector, state),
        '--var',
        `JWT_SECRET:${randomBytes(32).toString('base64url')}`,
      ],
      REPO_ROOT,
      env,
    );
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, run);
      // The migrations went where `--persist-to` said: the Worker reads its tables.
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      // Links point at the port served, not wrangler.toml's: the verification e-mail (logged) says so.
      const registered = await fetch(`http://127.0.0.1:${port}/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'dev@example.com', password: 'a long enough password' }),
      });
      expect(registered.status).toBe(201);
      while (!run.output().includes('/verify?code=')) await new Promise((r) => setTimeout(r, 50));
      expect(run.output()).toContain(`http://127.0.0.1:${port}/verify?code=`);
      await stopsEverything(run, port);
    } finally {
      run.killGroup();
    }
  }, 120_000);
});
