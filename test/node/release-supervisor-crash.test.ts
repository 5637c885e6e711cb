import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';
import { eventually, runningVersion, type SupervisorProcess, startSupervisor } from '../support/release-fixtures.js';
import { freePort } from '../support/server-process.js';

/**
 * kill -9 of the supervisor at each step of a switch (its failpoints), then
 * a plain restart: one whole version runs — the old one when the switch had
 * not happened, the new one when it had and it is healthy, the old one with
 * its database when the new one was being undone. The releases here are tiny
 * stand-in servers (the real one is exercised by release-supervisor.test.ts)
 * so that every step can be killed in a few seconds: they answer /readyz and
 * /v1/system/version, append their version to the "database" file the
 * supervisor backs up, pass /ask?op=…&version=… to the supervisor over IPC
 * as the real server does, and stop when that channel closes.
 */
const APP = `import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
const pkg = JSON.parse(fs.readFileSync(path.join(process.env.CMS_APP_ROOT, 'package.json'), 'utf8'));
fs.mkdirSync('data', { recursive: true });
fs.appendFileSync('data/cms.db', 'ran ' + pkg.version + '\\n');
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/readyz') return res.writeHead(pkg.unhealthy ? 503 : 200).end('{}');
  if (url.pathname === '/v1/system/version') return res.end(JSON.stringify({ version: pkg.version }));
  if (url.pathname === '/ask') {
    const id = String(Math.random());
    process.on('message', (m) => m.id === id && res.end(JSON.stringify(m)));
    process.send({ type: 'cms.update', id, operation: url.searchParams.get('op'), version: url.searchParams.get('version'), actorId: null });
    return;
  }
  res.writeHead(404).end();
});
server.listen(Number(process.env.PORT), process.env.HOST);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
`;
const LOCK = '{"lockfileVersion":3,"packages":{}}\n';

let tmp: string;
let seq = 0;
const running: SupervisorProcess[] = [];

function appTree(dir: string, version: string, extra: object = {}, lock = LOCK) {
  mkdirSync(path.join(dir, 'dist/node'), { recursive: true });
  writeFileSync(path.join(dir, 'dist/node/server.mjs'), APP);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'edge-cms', version, ...extra }));
  writeFileSync(path.join(dir, 'package-lock.json'), lock);
}

/** releases/<version>/ as the server's stager leaves it: the artifact and its manifest. */
function stage(install: string, version: string, extra: object = {}, lock = LOCK) {
  const src = path.join(tmp, `src-${++seq}`);
  appTree(src, version, extra, lock);
  const dir = path.join(install, 'releases', version);
  mkdirSync(dir, { recursive: true });
  const name = `edge-cms-${version}-node.tar.gz`;
  const tar = spawnSync('tar', ['-czf', path.join(dir, name), '-C', src, '.']);
  expect(tar.status).toBe(0);
  const bytes = readFileSync(path.join(dir, name));
  const signed = {
    version,
    sequence: seq,
    artifacts: [{ name, sha256: createHash('sha256').update(bytes).digest('hex'), length: bytes.length }],
  };
  writeFileSync(path.join(dir, 'release-manifest.json'), JSON.stringify({ signed, signatures: [] }));
}

async function install() {
  const dir = path.join(tmp, `install-${++seq}`);
  appTree(dir, '1.0.0');
  mkdirSync(path.join(dir, 'node_modules'));
  for (const f of ['scripts/supervisor.ts', 'scripts/lib/supervisor'])
    cpSync(path.join(REPO_ROOT, f), path.join(dir, f), { recursive: true });
  const port = await freePort();
  return { dir, base: `http://127.0.0.1:${port}`, env: { PORT: String(port), CMS_HEALTH_TIMEOUT_MS: '3000' } };
}

async function supervise(app: Awaited<ReturnType<typeof install>>, failpoint?: string) {
  const sup = await startSupervisor(app.dir, failpoint ? { ...app.env, CMS_SUPERVISOR_FAILPOINT: failpoint } : app.env);
  running.push(sup);
  return sup;
}

const versionIs = (base: string, v: string) =>
  eventually(`${v} to answer`, async () => ((await runningVersion(base)) === v ? true : undefined), 20_000);
const ask = (base: string, op: string, version = '') =>
  fetch(`${base}/ask?op=${op}&version=${version}`).then(
    (r) => r.json() as Promise<{ accepted: boolean; message: string | null }>,
  );
const state = (app: { dir: string }) =>
  JSON.parse(readFileSync(path.join(app.dir, 'releases/supervisor.json'), 'utf8'));
const database = (app: { dir: string }) => readFileSync(path.join(app.dir, 'data/cms.db'), 'utf8');

/** Waits for the supervisor's kill -9 and for its server to stop by itself (no orphan on the port). */
async function crashed(sup: SupervisorProcess, base: string) {
  expect(await sup.exited).toBeNull(); // killed by a signal
  expect(sup.child.signalCode).toBe('SIGKILL');
  await eventually(
    'the orphaned server to stop',
    async () => ((await runningVersion(base)) === undefined ? true : undefined),
    10_000,
  );
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'cms-supervisor-crash-'));
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  rmSync(tmp, { recursive: true, force: true });
});

describe('the supervisor after kill -9 at each step of a switch', () => {
  it.each([
    ['unpacked', '1.0.0', 'failed'],
    ['prepared', '1.0.0', 'failed'],
    ['stopped', '1.0.0', 'failed'],
    ['backed-up', '1.0.0', 'failed'],
    ['switched', '2.0.0', 'applied'],
    ['trial-started', '2.0.0', 'applied'],
  ])('killed at %s: after a restart %s runs whole (%s)', { timeout: 60_000 }, async (failpoint, expected, outcome) => {
    const app = await install();
    const first = await supervise(app, failpoint);
    await versionIs(app.base, '1.0.0');
    stage(app.dir, '2.0.0');
    // what the server's stager leaves when it is killed while writing a download
    mkdirSync(path.join(app.dir, 'releases/.staging-9.9.9-0123456789ab'));
    expect(await ask(app.base, 'apply', '2.0.0')).toMatchObject({ accepted: true });
    await crashed(first, app.base);

    await supervise(app);
    await versionIs(app.base, expected);
    const after = await eventually(
      'the switch to settle',
      async () => (state(app).pending === null ? state(app) : undefined),
      20_000,
    );
    expect(readdirSync(path.join(app.dir, 'releases/2.0.0')).filter((n) => n.startsWith('.app-'))).toEqual([]); // no half-unpacked scratch
    expect(readdirSync(path.join(app.dir, 'releases')).filter((n) => n.startsWith('.staging-'))).toEqual([]); // nor half-staged download
    expect(after).toMatchObject({
      current: { version: expected },
      lastApply: { operation: 'apply', version: '2.0.0', from: '1.0.0', outcome },
    });
    if (outcome === 'applied') expect(after.previous).toMatchObject({ version: '1.0.0' });
    else expect(after.previous).toBeNull();
    // Once settled, the one running version answers switches again.
    expect(await ask(app.base, expected === '1.0.0' ? 'apply' : 'rollback', '2.0.0')).toMatchObject({ accepted: true });
    await versionIs(app.base, expected === '1.0.0' ? '2.0.0' : '1.0.0');
  });

  it('killed while undoing an unhealthy release: after a restart the old one runs with its database', {
    timeout: 60_000,
  }, async () => {
    const app = await install();
    const first = await supervise(app, 'reverting');
    await versionIs(app.base, '1.0.0');
    stage(app.dir, '2.0.0', { unhealthy: true });
    expect(await ask(app.base, 'apply', '2.0.0')).toMatchObject({ accepted: true });
    await crashed(first, app.base); // 2.0.0 ran (and wrote), answered 503 for 3 s, then the revert began
    expect(database(app)).toContain('ran 2.0.0');

    await supervise(app);
    await versionIs(app.base, '1.0.0');
    expect(state(app)).toMatchObject({
      pending: null,
      previous: null,
      lastApply: { version: '2.0.0', outcome: 'rolled_back', reason: expect.stringContaining('/readyz answered 503') },
    });
    expect(database(app)).toBe('ran 1.0.0\nran 1.0.0\n'); // the backup, then 1.0.0's own restart
  });

  it('a release whose start is interrupted twice is given up: the old one runs', { timeout: 60_000 }, async () => {
    const app = await install();
    const first = await supervise(app, 'trial-started');
    await versionIs(app.base, '1.0.0');
    stage(app.dir, '2.0.0');
    expect(await ask(app.base, 'apply', '2.0.0')).toMatchObject({ accepted: true });
    await crashed(first, app.base);
    await crashed(await supervise(app, 'trial-started'), app.base); // the retry is killed too

    await supervise(app);
    await versionIs(app.base, '1.0.0');
    expect(state(app)).toMatchObject({
      pending: null,
      lastApply: { outcome: 'rolled_back', reason: expect.stringContaining('stopped 2 times') },
    });
  });

  it('killed during a rollback after the backup was restored: the restart finishes the rollback', {
    timeout: 60_000,
  }, async () => {
    const app = await install();
    const first = await supervise(app, 'restored');
    await versionIs(app.base, '1.0.0');
    stage(app.dir, '2.0.0');
    expect(await ask(app.base, 'apply', '2.0.0')).toMatchObject({ accepted: true });
    await versionIs(app.base, '2.0.0');
    await eventually('the apply to settle', async () => (state(app).pending === null ? true : undefined));
    expect(await ask(app.base, 'rollback')).toMatchObject({ accepted: true });
    await crashed(first, app.base);

    await supervise(app);
    await versionIs(app.base, '1.0.0');
    await eventually('the rollback to settle', async () => (state(app).pending === null ? true : undefined));
    expect(state(app)).toMatchObject({
      pending: null,
      current: { version: '1.0.0' },
      previous: { version: '2.0.0' },
      lastApply: { operation: 'rollback', outcome: 'applied' },
    });
    // 1.0.0's database as it was when 2.0.0 was applied (restored once, not again after the crash), then its restart
    expect(database(app)).toBe('ran 1.0.0\nran 1.0.0\n');
  });

  it('killed after the rolled-back release started and wrote: the restart does not restore the backup again', {
    timeout: 60_000,
  }, async () => {
    const app = await install();
    const first = await supervise(app);
    await versionIs(app.base, '1.0.0');
    stage(app.dir, '2.0.0');
    expect(await ask(app.base, 'apply', '2.0.0')).toMatchObject({ accepted: true });
    await versionIs(app.base, '2.0.0');
    await eventually('the apply to settle', async () => (state(app).pending === null ? true : undefined));
    await first.stop();
    const second = await supervise(app, 'trial-started');
    await versionIs(app.base, '2.0.0');
    expect(await ask(app.base, 'rollback')).toMatchObject({ accepted: true });
    await crashed(second, app.base);
    // 1.0.0's backup was restored, then 1.0.0 started and wrote before it saw the supervisor gone
    await eventually(
      'the orphan to write',
      async () => (database(app) === 'ran 1.0.0\nran 1.0.0\n' ? true : undefined),
      10_000,
    );
    await eventually(
      'the orphan to stop',
      async () => ((await runningVersion(app.base)) === undefined ? true : undefined),
      10_000,
    );

    await supervise(app);
    await versionIs(app.base, '1.0.0');
    await eventually('the rollback to settle', async () => (state(app).pending === null ? true : undefined));
    expect(state(app)).toMatchObject({
      current: { version: '1.0.0' },
      lastApply: { operation: 'rollback', outcome: 'applied' },
    });
    expect(database(app)).toBe('ran 1.0.0\nran 1.0.0\nran 1.0.0\n'); // restored once: what 1.0.0 wrote is kept
  });

  it('refuses an unknown version and a rollback with nothing to go back to; an artifact that no longer matches its manifest switches nothing', {
    timeout: 30_000,
  }, async () => {
    const app = await install();
    await supervise(app);
    await versionIs(app.base, '1.0.0');
    expect(await ask(app.base, 'rollback')).toEqual(
      expect.objectContaining({ accepted: false, message: 'there is no previous release to roll back to' }),
    );
    expect(await ask(app.base, 'apply', '9.9.9')).toEqual(
      expect.objectContaining({ accepted: false, message: expect.stringContaining('not staged') }),
    );
    expect(await ask(app.base, 'apply', '../../etc')).toEqual(
      expect.objectContaining({ accepted: false, message: expect.stringContaining('not a version') }),
    );

    // An artifact changed after staging is not unpacked: nothing switched, the old server never stopped.
    stage(app.dir, '3.0.0');
    const tarball = path.join(app.dir, 'releases/3.0.0/edge-cms-3.0.0-node.tar.gz');
    const bytes = readFileSync(tarball);
    bytes[bytes.length >> 1]! ^= 1;
    writeFileSync(tarball, bytes);
    const pid = state(app).child.pid;
    expect(await ask(app.base, 'apply', '3.0.0')).toMatchObject({ accepted: true });
    const failed = await eventually('the apply to fail', async () => (state(app).lastApply ? state(app) : undefined));
    expect(failed).toMatchObject({
      pending: null,
      current: { version: '1.0.0' },
      child: { pid },
      lastApply: { outcome: 'failed', reason: expect.stringContaining('does not match its manifest') },
    });
    expect(await runningVersion(app.base)).toBe('1.0.0');
    expect(readdirSync(path.join(app.dir, 'releases/3.0.0'))).not.toContain('app');
  });

  it('installs the production dependencies of a release whose lock file is new (npm ci --omit=dev) into a store shared by lock file', {
    timeout: 60_000,
  }, async () => {
    const app = await install();
    await supervise(app);
    await versionIs(app.base, '1.0.0');
    // A lock file without dependencies: npm ci runs for real and needs no registry.
    const lock = (v: string) =>
      JSON.stringify({
        name: 'edge-cms',
        version: v,
        lockfileVersion: 3,
        requires: true,
        packages: { '': { name: 'edge-cms', version: v } },
      });
    stage(app.dir, '2.0.0', {}, lock('2.0.0'));
    expect(await ask(app.base, 'apply', '2.0.0')).toMatchObject({ accepted: true });
    await versionIs(app.base, '2.0.0');
    const modules = path.join(app.dir, 'releases/2.0.0/app/node_modules');
    const store = realpathSync(modules);
    expect(path.relative(path.join(app.dir, 'releases/deps'), store)).toMatch(/^[0-9a-f]{24}\/node_modules$/);
    expect(readFileSync(path.join(store, '../package-lock.json'), 'utf8')).toBe(lock('2.0.0'));
  });
});
