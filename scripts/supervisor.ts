import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LastApply, UpdateState } from '../worker/src/ports/update-feed.ts';
import { killLeftover, type RunningChild, startChild, stopChild, waitHealthy } from './lib/supervisor/child.ts';
import { backupSqlite, pruneBackups, restoreSqlite, sqliteFile } from './lib/supervisor/database.ts';
import { readJson, writeFileDurable } from './lib/supervisor/durable.ts';
import { cleanScratch, prepareRelease, stagedManifest } from './lib/supervisor/release-dir.ts';
import type { Preparing, ReleaseRef, SupervisorState, Switching, UpdateMessage } from './lib/supervisor/state.ts';

/**
 * The production process manager (`NODE_ENV=production npm start`, or
 * `node scripts/supervisor.ts`; docs/releases.md, "The supervisor"). It
 * runs the current release as a child, and on the server's request
 * (POST /v1/system/update/apply or /rollback, passed over the IPC channel)
 * switches releases: prepare, stop, back up SQLite, switch, start, and
 * switch back when /readyz is not healthy in time.
 *
 * releases/supervisor.json is the only truth about which release runs. It
 * is replaced atomically at each step, and every step after a restart is
 * derived from it alone, so a kill -9 anywhere leaves one whole version
 * running once the supervisor is started again.
 */
// `.env` fills in what the environment leaves unset (docs/configuration.md),
// so the supervisor's health checks read the PORT and HOST the server will.
if (existsSync('.env')) process.loadEnvFile('.env');

const installDir = path.resolve(
  process.env.CMS_INSTALL_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'),
);
const releasesDir = path.join(installDir, 'releases');
const STATE_FILE = path.join(releasesDir, 'supervisor.json');
const BACKUPS = path.join(releasesDir, 'backups');
const HEALTH_TIMEOUT_MS = Number(process.env.CMS_HEALTH_TIMEOUT_MS ?? 60_000);
const STOP_GRACE_MS = Number(process.env.CMS_STOP_GRACE_MS ?? 15_000);
const MAX_TRIALS = 2;
const port = process.env.PORT ?? '8787';
const healthHost =
  !process.env.HOST || process.env.HOST === '0.0.0.0' || process.env.HOST === '::' ? '127.0.0.1' : process.env.HOST;
const baseUrl = `http://${healthHost.includes(':') ? `[${healthHost}]` : healthHost}:${port}`;
const dbFile = sqliteFile(process.env.DATABASE_URL, installDir);

const log = (msg: string, fields: Record<string, unknown> = {}, level: 'info' | 'warn' | 'error' = 'info') =>
  process.stdout.write(
    `${JSON.stringify({ level, at: new Date().toISOString(), message: msg, source: 'supervisor', ...fields })}\n`,
  );

/** Test hook: kill -9 this process at a named step (test/node/release-supervisor*.test.ts). */
function failpoint(name: string): void {
  if (process.env.CMS_SUPERVISOR_FAILPOINT === name) {
    log('failpoint: killing the supervisor', { failpoint: name }, 'warn');
    process.kill(process.pid, 'SIGKILL');
  }
}

let state: SupervisorState;
let running: RunningChild | null = null;
let busy = false;
let stopping = false;
let backoffMs = 1_000;

function save(): void {
  writeFileDurable(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

function initialState(): SupervisorState {
  const pkg = readJson<{ version: string }>(path.join(installDir, 'package.json'));
  if (!pkg) throw new Error(`${installDir} has no package.json`);
  return {
    schema: 'edge-cms.supervisor/1',
    current: { version: pkg.version, dir: '.' },
    previous: null,
    pending: null,
    lastApply: null,
    child: null,
  };
}

const release = (r: Omit<ReleaseRef, 'backup'> & { backup?: string | null }): ReleaseRef => ({
  version: r.version,
  dir: r.dir,
  backup: r.backup ?? null,
});

function launch(): RunningChild {
  const current = state.current;
  const r = startChild({ installDir, appDir: current.dir, env: process.env, onMessage: handleMessage });
  running = r;
  state.child = { pid: r.pid, dir: current.dir };
  save();
  log('started', { version: current.version, pid: r.pid });
  void r.exited.then((e) => {
    if (running !== r) return;
    running = null;
    if (stopping || busy) return;
    log('the server exited; restarting it', { version: current.version, ...e, inMs: backoffMs }, 'error');
    setTimeout(() => !stopping && !busy && !running && launch(), backoffMs);
    backoffMs = Math.min(backoffMs * 2, 30_000);
  });
  return r;
}

function outcome(p: Preparing | Switching, result: LastApply['outcome'], reason: string | null): LastApply {
  return {
    id: p.id,
    operation: p.operation,
    version: p.phase === 'preparing' ? p.version : p.to.version,
    from: p.phase === 'preparing' ? state.current.version : p.from.version,
    outcome: result,
    at: new Date().toISOString(),
    reason,
    actorId: p.actorId ?? null,
  };
}

async function handleMessage(message: unknown, child: ChildProcess): Promise<void> {
  const m = message as UpdateMessage | null;
  if (m?.type !== 'cms.update') return;
  const reply = (accepted: boolean, message: string | null): void => {
    if (child.connected) child.send({ type: 'cms.update.reply', id: m.id, accepted, message });
  };
  const refusal = refuse(m);
  if (refusal) return reply(false, refusal);
  await switchTo(m, () => reply(true, null)).catch((e: Error) => {
    // Unforeseen (a disk error in a backup or restore): keep a server running; the
    // pending step in the state file is finished or undone at the next start.
    log('update failed', { error: e.stack ?? String(e) }, 'error');
    busy = false;
    if (!running && !stopping) launch();
  });
}

function refuse(m: UpdateMessage): string | null {
  if (busy || state.pending) return 'an update or rollback is already in progress';
  if (m.operation === 'apply') {
    if (m.version === null) return 'apply needs a version';
    if (m.version === state.current.version) return `${m.version} is already running`;
    try {
      stagedManifest(installDir, m.version);
    } catch (e) {
      return (e as Error).message;
    }
    return null;
  }
  if (m.operation === 'rollback') return state.previous ? null : 'there is no previous release to roll back to';
  return `unknown operation ${m.operation}`;
}

/**
 * apply: to the staged version. rollback: to `previous`, with its database
 * backup. `accepted` answers the server once the request is on disk.
 */
async function switchTo(m: UpdateMessage, accepted: () => void): Promise<void> {
  busy = true;
  const target = m.operation === 'apply' ? m.version : state.previous?.version;
  if (!target) throw new Error(`nothing to ${m.operation} to`); // refuse() let it through: a bug
  const pending: Preparing = {
    id: m.id,
    operation: m.operation,
    phase: 'preparing',
    version: target,
    actorId: m.actorId ?? null,
    since: new Date().toISOString(),
  };
  state.pending = pending;
  save();
  accepted();
  log(`${m.operation} requested`, { version: pending.version, from: state.current.version });
  let to: ReleaseRef;
  try {
    to =
      m.operation === 'apply' || !state.previous
        ? { version: target, dir: await prepareRelease(installDir, target, log, failpoint), backup: null }
        : release(state.previous);
    if (!existsSync(path.join(installDir, to.dir, 'dist/node/server.mjs')))
      throw new Error(`${to.dir} holds no server`);
  } catch (e) {
    return abandon(pending, e as Error);
  }
  failpoint('prepared');
  // Let the server's 202 leave (and its keep-alive connection go idle) before asking it to stop.
  await new Promise((r) => setTimeout(r, 300));
  await stopChild(running, STOP_GRACE_MS);
  running = null;
  failpoint('stopped');
  let backup: string | null;
  try {
    backup = dbFile ? backupSqlite(dbFile, BACKUPS, `${state.current.version}-${Date.now()}`, installDir) : null;
  } catch (e) {
    return abandon(pending, e as Error);
  }
  failpoint('backed-up');
  const from = { ...release(state.current), backup };
  state = {
    ...state,
    current: { version: to.version, dir: to.dir },
    previous: from,
    pending: {
      ...pending,
      phase: 'trial',
      from,
      to,
      keepPrevious: state.previous,
      toRestore: to.backup,
      restored: false,
      attempts: 1,
    },
  };
  save();
  failpoint('switched');
  await trial();
}

/** Nothing was switched: record why and make sure the current release runs. */
function abandon(pending: Preparing, e: Error): void {
  log(`${pending.operation} abandoned; nothing switched`, { version: pending.version, error: e.message }, 'error');
  state.lastApply = outcome(pending, 'failed', e.message);
  state.pending = null;
  save();
  busy = false;
  if (!running && !stopping) launch();
}

/** The pending switch of a trial or revert (never called while preparing). */
function switching(): Switching {
  const p = state.pending;
  if (!p || p.phase === 'preparing') throw new Error(`no switch in progress (${p?.phase ?? 'none'})`);
  return p;
}

/** Starts state.current (restoring its backup first on a rollback) and keeps it only when healthy. */
async function trial(): Promise<void> {
  busy = true;
  const p = switching();
  if (p.toRestore && dbFile && !p.restored) {
    try {
      restoreSqlite(path.resolve(installDir, p.toRestore), dbFile);
    } catch (e) {
      return revert(`restoring the database of ${p.to.version} failed: ${(e as Error).message}`);
    }
    p.restored = true;
    save();
    failpoint('restored');
  }
  const r = launch();
  failpoint('trial-started');
  const reason = await waitHealthy({ baseUrl, version: p.to.version, timeoutMs: HEALTH_TIMEOUT_MS, running: r });
  if (stopping) return;
  if (reason) return revert(reason);
  state.lastApply = outcome(p, 'applied', null);
  state.pending = null;
  save();
  log(`${p.operation} done`, { version: p.to.version, from: p.from.version });
  busy = false;
  backoffMs = 1_000;
  prune();
}

/** Back to the release that ran before the switch, with the database as it was then. */
async function revert(reason: string): Promise<void> {
  busy = true;
  const p = switching();
  log(`${p.to.version} is not healthy; switching back to ${p.from.version}`, { reason }, 'error');
  p.phase = 'reverting';
  p.reason = reason;
  save();
  failpoint('reverting');
  const r = running;
  running = null;
  await stopChild(r, STOP_GRACE_MS);
  if (p.from.backup && dbFile) restoreSqlite(path.resolve(installDir, p.from.backup), dbFile);
  state = {
    ...state,
    current: { version: p.from.version, dir: p.from.dir },
    previous: p.keepPrevious,
    pending: null,
    lastApply: outcome(p, 'rolled_back', reason),
  };
  save();
  busy = false;
  const back = launch();
  const again = await waitHealthy({ baseUrl, version: p.from.version, timeoutMs: HEALTH_TIMEOUT_MS, running: back });
  if (again) log(`${p.from.version} is not healthy either`, { reason: again }, 'error');
}

/** Keeps the current and previous releases, a staged newer one, and the backups they refer to. */
function prune(): void {
  try {
    const staged = readJson<UpdateState>(path.join(releasesDir, 'update-state.json'))?.staged?.version;
    const keep = new Set([state.current.version, state.previous?.version, staged]);
    const usedDeps = new Set<string>();
    for (const name of readdirSync(releasesDir)) {
      const dir = path.join(releasesDir, name);
      if (!/^\d+\.\d+\.\d+/.test(name)) continue;
      if (!keep.has(name)) rmSync(dir, { recursive: true, force: true });
      else if (existsSync(path.join(dir, 'app/node_modules')))
        usedDeps.add(realpathSync(path.join(dir, 'app/node_modules')));
    }
    const deps = path.join(releasesDir, 'deps');
    if (existsSync(deps)) {
      for (const d of readdirSync(deps))
        if (!usedDeps.has(path.join(realpathSync(deps), d, 'node_modules')))
          rmSync(path.join(deps, d), { recursive: true, force: true });
    }
    pruneBackups(BACKUPS, [state.previous?.backup], installDir);
  } catch (e) {
    log('pruning old releases failed', { error: (e as Error).message }, 'warn');
  }
}

/** After a restart: finish or undo whatever the state file says was in progress. */
async function boot(): Promise<void> {
  mkdirSync(releasesDir, { recursive: true });
  cleanScratch(installDir);
  state = readJson<SupervisorState>(STATE_FILE) ?? initialState();
  if (state.child?.pid) await killLeftover(state.child.pid, path.resolve(installDir, state.child.dir));
  const p = state.pending;
  if (!p) return void launch();
  log('resuming after a restart', { operation: p.operation, phase: p.phase, version: p.version }, 'warn');
  if (p.phase === 'preparing') {
    state.lastApply = outcome(p, 'failed', 'the supervisor stopped while preparing; nothing was switched');
    state.pending = null;
    save();
    return void launch();
  }
  if (p.phase === 'reverting') return revert(p.reason ?? 'the supervisor stopped while switching back');
  p.attempts = (p.attempts ?? 1) + 1;
  save();
  if (p.attempts > MAX_TRIALS)
    return revert(`the supervisor stopped ${MAX_TRIALS} times while ${p.to.version} was starting`);
  return trial();
}

function shutdown(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  log('stopping', { signal });
  void stopChild(running, STOP_GRACE_MS).then(() => process.exit(0));
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

await boot();
