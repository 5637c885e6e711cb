import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import type { PinnedKey } from '../../worker/src/core/releases/pinned-keys.js';
import { REPO_ROOT } from './paths.js';
import {
  eventually,
  makeAppFixture,
  runningVersion,
  type SiteServer,
  type SupervisorProcess,
  serveSite,
  startSupervisor,
} from './release-fixtures.js';
import { freePort, registerVerifiedOwner } from './server-process.js';

/** What the supervisor scenarios share, filled in by beforeAll. */
export interface SupervisedInstall {
  tmp: string;
  install: string;
  /** The feed's files, served by `feed`. */
  site: string;
  feed: SiteServer;
  base: string;
  /** Replaced when a scenario restarts the supervisor. */
  sup: SupervisorProcess;
  /** The verified owner's session. */
  token: string;
  keyFiles: string[];
  pins: [PinnedKey, PinnedKey];
}

interface Entry {
  action: string;
  actorType: string;
  actorId: string | null;
  subjectId: string | null;
  details: Record<string, unknown> | null;
}

/**
 * v1 installed from a fixture of the real bundle and running under the
 * supervisor (`npm start` in an install without sources), a local feed
 * server, two pinned release keys and a verified owner; stopped and removed
 * after the file. With the helpers the scenarios use on it.
 */
export function useSupervisedInstall() {
  const ctx = {} as SupervisedInstall;

  function release(...args: string[]) {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/release.ts'), ...args], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(r.stdout + r.stderr);
    return r.stdout;
  }

  function publish(version: string, sequence: number, opts: { broken?: boolean } = {}) {
    const src = path.join(ctx.tmp, `src-${version}`);
    makeAppFixture(src, { version, pins: ctx.pins, brokenAfterMigrating: opts.broken });
    release(
      'build',
      '--from',
      src,
      '--key',
      ctx.keyFiles[0]!,
      '--out',
      ctx.site,
      '--min-from',
      '0.1.0',
      '--sequence',
      String(sequence),
      '--notes',
      `Release ${version}.`,
    );
  }

  async function api(method: string, route: string, body?: unknown) {
    const res = await fetch(`${ctx.base}${route}`, {
      method,
      headers: { authorization: `Bearer ${ctx.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the answers loosely and checks what it reads
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> };
  }

  const status = async () => (await api('GET', '/v1/system/update')).body;
  const stagedVersions = () =>
    readdirSync(path.join(ctx.install, 'releases'))
      .filter((n) => /^\d+\.\d+\.\d+$/.test(n))
      .sort();
  const tables = () => {
    const db = new Database(path.join(ctx.install, 'data/cms.db'), { readonly: true });
    try {
      return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      );
    } finally {
      db.close();
    }
  };

  /** The activity log's update entries, oldest first. */
  async function updateActivity(): Promise<Entry[]> {
    const r = await api('GET', '/v1/activity?limit=100');
    return (r.body.items as Entry[]).filter((e) => e.action.startsWith('update.')).reverse();
  }
  const eventuallyLogged = (what: string, match: (e: Entry) => boolean) =>
    eventually(what, async () => (await updateActivity()).find(match), 15_000);

  async function siteNames(): Promise<string[]> {
    const r = await api('GET', '/v1/sites?limit=100');
    return (r.body.items as { name: string }[]).map((s) => s.name).sort();
  }

  beforeAll(async () => {
    await buildNode();
    ctx.tmp = mkdtempSync(path.join(os.tmpdir(), 'cms-supervisor-'));
    ctx.install = path.join(ctx.tmp, 'install');
    ctx.site = path.join(ctx.tmp, 'site');
    ctx.keyFiles = [path.join(ctx.tmp, 'keys/k1.pem'), path.join(ctx.tmp, 'keys/k2.pem')];
    ctx.pins = ctx.keyFiles.map((k) => {
      const m = /"keyId":"([0-9a-f]{16})","publicKey":"([A-Za-z0-9_-]{43})"/.exec(release('keygen', '--out', k))!;
      return { keyId: m[1]!, publicKey: m[2]!, status: 'active' as const };
    }) as [PinnedKey, PinnedKey];
    makeAppFixture(ctx.install, { version: '0.1.0', pins: ctx.pins, withNodeModules: true });

    ctx.feed = await serveSite(ctx.site);

    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    // `npm start` in an install without sources runs the supervisor
    ctx.sup = await startSupervisor(
      ctx.install,
      { PORT: String(port), UPDATE_FEED_URL: `${ctx.feed.url}/feed.json`, CMS_HEALTH_TIMEOUT_MS: '30000' },
      'scripts/start.ts',
    );
    expect(await eventually('v1 to answer', () => runningVersion(ctx.base), 30_000)).toBe('0.1.0');

    ctx.token = await registerVerifiedOwner(ctx.base, ctx.sup.output);
  }, 120_000);

  afterAll(async () => {
    await ctx.sup?.stop();
    if (process.env.CMS_TEST_SUPERVISOR_LOG)
      writeFileSync(process.env.CMS_TEST_SUPERVISOR_LOG, ctx.sup?.output() ?? '');
    await ctx.feed?.close();
    if (ctx.tmp) rmSync(ctx.tmp, { recursive: true, force: true });
  });

  return { ctx, publish, api, status, stagedVersions, tables, updateActivity, eventuallyLogged, siteNames };
}
