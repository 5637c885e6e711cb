import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_FILES, unpatchPostgresSource } from '../../scripts/lib/postgres-patches.ts';
import { TEST_PG_URL } from '../support/server-databases.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/**
 * postgres.js 3.4.9 ends the process when the server closes a connection in
 * the middle of a transaction (its ROLLBACK is written to a socket that is
 * already gone: docs/postgres-driver.md). The probe runs in a child process
 * against real PostgreSQL through a TCP proxy that hangs the connection up
 * mid-statement, once with the installed (patched) driver, which must survive
 * with a catchable CONNECTION_CLOSED, and once with a copy of the same files
 * with the fix taken out, which must still crash: so the reproduction is real.
 */
const PG_DIR = path.resolve(import.meta.dirname, '../../node_modules/postgres');
const PROBE = path.resolve(import.meta.dirname, '../support/postgres-hang-up-probe.ts');

interface ProbeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runProbe(entry: string, url: string, proxy: TcpProxy): Promise<ProbeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROBE, entry, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      // The statement is on its way: hang up every connection, as a restarting server does.
      if (stdout === 'in-flight\n') proxy.hangUp();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('postgres.js: the server hangs up mid-transaction', () => {
  let proxy: TcpProxy;
  let url: string;
  let unpatched: string;

  beforeAll(async () => {
    const target = new URL(TEST_PG_URL);
    proxy = await startTcpProxy(Number(target.port || 5432), target.hostname);
    target.port = String(proxy.port);
    target.pathname = '/postgres';
    url = target.toString();
    unpatched = mkdtempSync(path.join(tmpdir(), 'pg-unpatched-'));
    cpSync(path.join(PG_DIR, 'src'), path.join(unpatched, 'src'), { recursive: true });
    writeFileSync(path.join(unpatched, 'package.json'), '{"type":"module"}');
    const file = path.join(unpatched, CONNECTION_FILES[0]!);
    writeFileSync(file, unpatchPostgresSource(readFileSync(file, 'utf8'), file));
  });
  afterAll(async () => {
    await proxy?.close();
    if (unpatched) rmSync(unpatched, { recursive: true, force: true });
  });

  it('without the fix, the driver throws where nothing catches it and the process dies', async () => {
    const run = await runProbe(path.join(unpatched, 'src/index.js'), url, proxy);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/TypeError: Cannot read properties of null \(reading 'write'\)[\s\S]*nextWrite/);
  });

  it('with the fix, the transaction fails with CONNECTION_CLOSED and the pool goes on', async () => {
    const run = await runProbe(path.join(PG_DIR, 'src/index.js'), url, proxy);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.split('\n')[1]!)).toEqual({ transaction: 'CONNECTION_CLOSED', after: 2 });
  });
});
