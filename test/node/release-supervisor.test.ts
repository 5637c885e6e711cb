import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPrivateKey, signManifest } from '../../scripts/lib/release-keys.ts';
import { REPO_ROOT } from '../support/paths.js';
import {
  artifactOf,
  eventually,
  feedOf,
  makeKey,
  makeManifest,
  runningVersion,
  sign,
  startSupervisor,
} from '../support/release-fixtures.js';
import { useSupervisedInstall } from '../support/supervised-install.js';

/**
 * The issue's end-to-end test. A local feed server on 127.0.0.1; v1 runs
 * under the supervisor; v2 is published → the check notifies → download,
 * verify, stage → apply → v2 answers. Each attack on the feed is refused
 * through the running server with v2 untouched. A v3 that migrates and then
 * fails to start is rolled back to v2 automatically, database included. A
 * kill -9 of the server in the middle of a download leaves v2 running and
 * nothing staged. A manual rollback returns to v1 and its database backup.
 *
 * Releases are `release build --from` fixtures of the real bundle
 * (makeAppFixture): relabelled versions pinned to keys made here.
 */
const { ctx, publish, api, status, stagedVersions, tables, updateActivity, eventuallyLogged, siteNames } =
  useSupervisedInstall();

describe('self-update under the supervisor (real server, local feed)', () => {
  it('v2 is published, notified, downloaded, verified, staged and applied; v2 answers', {
    timeout: 60_000,
  }, async () => {
    publish('0.2.0', 100);
    expect(await status()).toMatchObject({
      current: '0.1.0',
      available: false,
      supervised: true,
      previous: null,
      lastApply: null,
    });
    expect(await api('POST', '/v1/system/update/apply')).toMatchObject({ status: 409 }); // nothing staged yet

    expect((await api('POST', '/v1/system/update/check')).body).toMatchObject({
      latest: '0.2.0',
      available: true,
      staged: null,
      notes: 'Release 0.2.0.',
    });
    expect((await api('POST', '/v1/system/update/download')).body).toMatchObject({ staged: '0.2.0' });
    expect(readdirSync(path.join(ctx.install, 'releases/0.2.0')).sort()).toEqual([
      'edge-cms-0.2.0-node.tar.gz',
      'release-manifest.json',
    ]);
    await api('POST', '/v1/sites', { name: 'before v2', baseUrl: 'https://before.example' });

    const applied = await api('POST', '/v1/system/update/apply');
    expect(applied.status).toBe(202);
    expect(applied.body.pending).toMatchObject({ operation: 'apply', version: '0.2.0' });
    await eventually('the apply to finish', async () =>
      (await status().catch(() => null))?.lastApply ? true : undefined,
    );
    expect(await runningVersion(ctx.base)).toBe('0.2.0');
    expect(await status()).toMatchObject({
      current: '0.2.0',
      staged: null,
      previous: '0.1.0',
      pending: null,
      lastApply: { operation: 'apply', version: '0.2.0', from: '0.1.0', outcome: 'applied', reason: null },
    });
    expect(existsSync(path.join(ctx.install, 'releases/0.2.0/app/dist/node/server.mjs'))).toBe(true);
    expect(readdirSync(path.join(ctx.install, 'releases/backups'))).toHaveLength(1);
    expect(await siteNames()).toEqual(['before v2']);
    // The owner's requests, and the supervisor's outcome as a system entry written by v2 when it started
    await eventuallyLogged('the applied outcome', (e) => e.actorType === 'system');
    expect((await updateActivity()).map((e) => [e.action, e.actorType, e.subjectId])).toEqual([
      ['update.check', 'user', '0.2.0'],
      ['update.download', 'user', '0.2.0'],
      ['update.apply', 'user', '0.2.0'],
      ['update.apply', 'system', '0.2.0'],
    ]);
    expect((await updateActivity()).at(-1)!.details).toMatchObject({
      outcome: 'applied',
      from: '0.1.0',
      automatic: false,
    });
  });

  it('refuses each attack on the feed through the running server, v2 untouched', async () => {
    const name = 'edge-cms-0.4.0-node.tar.gz';
    const bytes = Buffer.alloc(64 * 1024, 7);
    const artifact = await artifactOf(name, new Uint8Array(bytes));
    const releaseKey = loadPrivateKey(ctx.keyFiles[1]!, REPO_ROOT); // the second pinned key: rotation works too
    const stranger = await makeKey();
    const m = (over: object = {}) =>
      makeManifest({
        version: '0.4.0',
        sequence: 400,
        issuedAt: new Date(Date.now() - 3_600_000).toISOString(),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        minUpdateFrom: '0.1.0',
        notes: 'attack',
        artifacts: [artifact],
        ...over,
      });
    const flipped = Buffer.from(bytes);
    flipped[1000]! ^= 1;
    const cases: { reason: string; entry: unknown; served?: Buffer }[] = [
      { reason: 'signature_missing', entry: { signed: m(), signatures: [] } },
      { reason: 'key_not_pinned', entry: await sign(m(), [stranger]) },
      {
        reason: 'signature_invalid',
        entry: (() => {
          const e = signManifest(m(), [releaseKey]);
          e.signed.notes = 'tampered after signing';
          return e;
        })(),
      },
      { reason: 'rollback', entry: signManifest(m({ sequence: 99 }), [releaseKey]) },
      {
        reason: 'expired',
        entry: signManifest(m({ issuedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-02-01T00:00:00.000Z' }), [
          releaseKey,
        ]),
      },
      {
        reason: 'downgrade',
        entry: signManifest(m({ version: '0.1.5', artifacts: [{ ...artifact, name: 'edge-cms-0.1.5-node.tar.gz' }] }), [
          releaseKey,
        ]),
      },
      { reason: 'version_jump', entry: signManifest(m({ minUpdateFrom: '0.3.0' }), [releaseKey]) },
    ];
    // The manifest verifies here: the feed check succeeds, the bytes served are refused.
    const artifactCases = [
      { reason: 'artifact_hash_mismatch', entry: signManifest(m(), [releaseKey]), served: flipped },
      { reason: 'artifact_too_long', entry: signManifest(m(), [releaseKey]), served: Buffer.concat([bytes, bytes]) },
    ];
    const before = await status();
    try {
      for (const c of [...cases, ...artifactCases]) {
        if (c === artifactCases[0]) expect(await status()).toEqual(before); // no sequence, no latest moved
        ctx.feed.overrides.set('feed.json', Buffer.from(JSON.stringify(feedOf([c.entry]))));
        ctx.feed.overrides.set(name, c.served ?? bytes);
        const r = await api('POST', '/v1/system/update/download');
        expect({
          reason: c.reason,
          status: r.status,
          code: r.body.error?.code,
          issue: r.body.error?.issues?.[0]?.message,
        }).toEqual({ reason: c.reason, status: 400, code: 'invalid_request', issue: c.reason });
        expect(stagedVersions()).toEqual(['0.2.0']);
        expect(await runningVersion(ctx.base)).toBe('0.2.0');
      }
    } finally {
      ctx.feed.overrides.clear();
    }
    expect(await status()).toMatchObject({
      current: '0.2.0',
      staged: null,
      latest: '0.4.0',
      lastApply: before.lastApply,
    });
    const refusals = (await updateActivity())
      .filter((e) => e.details?.refused)
      .map((e) => [e.action, e.details!.refused]);
    expect(refusals).toEqual([...cases, ...artifactCases].map((c) => ['update.download', c.reason]));
  });

  it('a kill -9 of the server mid-download leaves v2 running and nothing staged', { timeout: 60_000 }, async () => {
    publish('0.3.0', 500, { broken: true });
    const downloading = ctx.feed.stall('edge-cms-0.3.0-node.tar.gz');
    const request = api('POST', '/v1/system/update/download').catch((e: Error) => e);
    await downloading;
    const pid = (
      JSON.parse(readFileSync(path.join(ctx.install, 'releases/supervisor.json'), 'utf8')) as { child: { pid: number } }
    ).child.pid;
    process.kill(pid, 'SIGKILL');
    expect(await request).toBeInstanceOf(Error); // the connection died with the server
    ctx.feed.drop();
    await eventually('the supervisor to restart v2', async () => {
      const now = (
        JSON.parse(readFileSync(path.join(ctx.install, 'releases/supervisor.json'), 'utf8')) as {
          child: { pid: number };
        }
      ).child.pid;
      return now !== pid && (await runningVersion(ctx.base)) === '0.2.0' ? true : undefined;
    });
    expect(stagedVersions()).toEqual(['0.2.0']);
    expect(readdirSync(path.join(ctx.install, 'releases')).filter((n) => n.startsWith('.staging'))).toEqual([]);
    expect((await status()).staged).toBeNull();
  });

  it('a v3 that migrates and then fails to start is rolled back to v2 automatically, database included', {
    timeout: 60_000,
  }, async () => {
    expect((await api('POST', '/v1/system/update/download')).body).toMatchObject({ latest: '0.3.0', staged: '0.3.0' });
    const applied = await api('POST', '/v1/system/update/apply');
    expect(applied.status).toBe(202);
    const after = await eventually('the v3 outcome', async () => {
      const s = await status().catch(() => undefined);
      return s?.lastApply?.version === '0.3.0' ? s : undefined;
    });
    expect(after).toMatchObject({
      current: '0.2.0',
      previous: '0.1.0',
      pending: null,
      staged: '0.3.0',
      lastApply: { operation: 'apply', from: '0.2.0', outcome: 'rolled_back' },
    });
    expect(after.lastApply.reason).toMatch(/exited .* before it was ready/);
    expect(ctx.sup.output()).toContain('fixture: this release fails after its migrations');
    // v3's migration ran (the backup is what undid it)
    expect(tables()).not.toContain('fixture_probe');
    expect(await siteNames()).toEqual(['before v2']);
    const automatic = await eventuallyLogged(
      'the automatic rollback',
      (e) => e.actorType === 'system' && e.action === 'update.rollback',
    );
    expect(automatic).toMatchObject({
      actorId: null,
      subjectId: '0.2.0',
      details: { automatic: true, outcome: 'rolled_back', version: '0.3.0', from: '0.2.0' },
    });
  });

  it('a manual rollback returns to v1 and its database backup (what was written since is set aside)', {
    timeout: 90_000,
  }, async () => {
    await api('POST', '/v1/sites', { name: 'written on v2', baseUrl: 'https://v2.example' });
    expect(await siteNames()).toEqual(['before v2', 'written on v2']);
    const r = await api('POST', '/v1/system/update/rollback');
    expect(r.status).toBe(202);
    await eventually('the rollback to finish', async () =>
      (await status().catch(() => null))?.lastApply?.operation === 'rollback' ? true : undefined,
    );
    expect(await runningVersion(ctx.base)).toBe('0.1.0');
    expect(await status()).toMatchObject({
      current: '0.1.0',
      previous: '0.2.0',
      lastApply: { operation: 'rollback', version: '0.1.0', from: '0.2.0', outcome: 'applied' },
    });
    // v1's database as it was when v2 was applied: the site written on v2 is gone from the live database…
    expect(await siteNames()).toEqual(['before v2']);
    // …and kept in the backup taken before the rollback, which a rollback of the rollback restores.
    const back = await api('POST', '/v1/system/update/rollback');
    expect(back.status).toBe(202);
    await eventually('the second rollback to finish', async () =>
      (await status().catch(() => null))?.lastApply?.version === '0.2.0' ? true : undefined,
    );
    expect(await runningVersion(ctx.base)).toBe('0.2.0');
    expect(await siteNames()).toEqual(['before v2', 'written on v2']);
    const log = await updateActivity();
    expect(log.filter((e) => e.action === 'update.rollback' && e.actorType === 'user')).toHaveLength(2);
  });

  it('a kill -9 of the supervisor stops its server too (no orphan on the port); started again, v2 runs', {
    timeout: 60_000,
  }, async () => {
    ctx.sup.child.kill('SIGKILL');
    await ctx.sup.exited;
    await eventually(
      'the orphaned server to stop',
      async () => ((await runningVersion(ctx.base)) === undefined ? true : undefined),
      15_000,
    );
    ctx.sup = await startSupervisor(
      ctx.install,
      { PORT: new URL(ctx.base).port, UPDATE_FEED_URL: `${ctx.feed.url}/feed.json` },
      'scripts/start.ts',
    );
    expect(await eventually('v2 to answer again', () => runningVersion(ctx.base), 30_000)).toBe('0.2.0');
    expect(await status()).toMatchObject({ current: '0.2.0', previous: '0.1.0', pending: null });
  });

  it('apply and rollback need a session', async () => {
    for (const op of ['apply', 'rollback'])
      expect((await fetch(`${ctx.base}/v1/system/update/${op}`, { method: 'POST' })).status).toBe(401);
  });
});
