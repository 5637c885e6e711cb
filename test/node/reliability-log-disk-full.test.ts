import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { SERVER_NODE_FLAGS } from '../../scripts/lib/supervisor/server-node-flags.ts';
import { freePort, SERVER_BUNDLE } from '../support/server-process.js';

/**
 * Found by `npm run reliability` (faults, disk full): with its output going
 * to a file on the full disk, the server died at its next log line — Node
 * throws an unhandled 'error' (ENOSPC) from a stdout that is a file. Here
 * stdout is /dev/full, where every write fails that way: the server must
 * keep serving, logging or not.
 */
describe('the server whose log cannot be written', () => {
  let cwd: string;
  let child: ChildProcess;
  let url: string;
  let stderr = '';
  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-devfull-'));
    const port = await freePort();
    const full = openSync('/dev/full', 'w');
    child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_BUNDLE], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        JWT_SECRET: 'log-disk-full-test-secret-0123456789ab',
      },
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    child.stderr!.on('data', (d) => (stderr += d));
    url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && child.exitCode === null; i++) {
      if (
        await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await rm(cwd, { recursive: true, force: true });
  });

  it('keeps serving when every log line fails with ENOSPC', async () => {
    expect(child.exitCode, stderr).toBeNull();
    // Registration writes the verification e-mail to the log (no SMTP_URL).
    const res = await fetch(`${url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.test', password: 'a long enough password' }),
    });
    expect(res.status).toBe(201);
    // The log lines are written in a later turn of the loop than the answer; a request answered
    // after that turn shows the server lived through the failed writes (a second one, through
    // an error the failure might have raised on the next tick).
    for (let i = 0; i < 2; i++) expect((await fetch(`${url}/healthz`)).status, stderr).toBe(200);
    expect(child.exitCode, stderr).toBeNull();
  });
});
