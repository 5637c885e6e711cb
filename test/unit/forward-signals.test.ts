import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installArgs } from '../../scripts/lib/install.ts';
import { REPO_ROOT } from '../support/paths.js';

/**
 * scripts/lib/forward-signals.ts on real processes: a SIGTERM to the parent
 * reaches the child it runs, and the parent ends as the child did
 * (test/node/npm-scripts-stop.test.ts does the same through npm and wrangler).
 */
function runParent(mode: 'handles' | 'default') {
  const parent = spawn(process.execPath, [path.join(REPO_ROOT, 'test/fixtures/forwarding-parent.ts'), mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const ready = new Promise<void>((resolve) =>
    parent.stdout.on('data', (d) => {
      output += d;
      if (output.includes('child ready')) resolve();
    }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    parent.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { parent, ready, exited, output: () => output };
}

describe('signal forwarding', () => {
  it('passes SIGTERM to the child and exits with its code once it has stopped', async () => {
    const run = runParent('handles');
    await run.ready;
    run.parent.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output()).toContain('child stopping');
  });

  it('ends by the same signal when the child was ended by it', async () => {
    const run = runParent('default');
    await run.ready;
    run.parent.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });
});

describe("npm start's install", () => {
  it('is `npm ci` on a fresh clone (it never writes package-lock.json), `npm install` over an older install', () => {
    expect(installArgs(true)[0]).toBe('ci');
    expect(installArgs(false)[0]).toBe('install');
    for (const fresh of [true, false]) expect(installArgs(fresh)).toContain('--include=dev');
  });
});
