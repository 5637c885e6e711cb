import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { nodeIsRecentEnough, REQUIRED_NODE } from '../../scripts/require-node.mjs';
import { REPO_ROOT } from '../support/paths.js';
import { SERVER_BUNDLE } from '../support/server-process.js';

/**
 * An older Node is told which version it needs, by the first code that runs:
 * scripts/require-node.mjs for the npm scripts (the .ts scripts themselves
 * would fail with ERR_UNKNOWN_FILE_EXTENSION) and the server bundle's entry
 * for `node dist/node/server.mjs`. The older Node is this one with
 * process.versions.node set back before anything loads (`--import`); the
 * same was seen with a real Node 20.
 */
const engines = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;
const required = /^>=(\d+\.\d+)$/.exec(engines)?.[1];
const asNode20 = `data:text/javascript,Object.defineProperty(process.versions, "node", { value: "20.20.2" })`;

function runAsNode20(args: string[]) {
  return spawnSync(process.execPath, ['--import', asNode20, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 30_000,
  });
}

describe('the required Node version', () => {
  beforeAll(async () => {
    await buildNode();
  }, 120_000);

  it("is package.json's engines.node", () => {
    expect(required).toBe(REQUIRED_NODE.join('.'));
    expect(nodeIsRecentEnough(process.versions.node)).toBe(true);
    for (const v of ['22.18.0', '22.23.3', '23.0.0', '24.1.0']) expect(nodeIsRecentEnough(v), v).toBe(true);
    for (const v of ['20.20.2', '22.17.1', '18.0.0', '21.99.0']) expect(nodeIsRecentEnough(v), v).toBe(false);
  });

  it('npm scripts: the launcher names it and runs nothing else', () => {
    for (const script of ['scripts/start.ts', 'scripts/dev.ts', 'scripts/test.ts']) {
      const run = runAsNode20(['scripts/require-node.mjs', script]);
      expect(run.status, script).toBe(1);
      expect(run.stderr).toContain(`Node 20.20.2 is too old: this project needs Node ${required} or newer`);
      expect(run.stdout).toBe('');
    }
  });

  it('the launcher runs the script in its own process with the arguments as if started directly', () => {
    const run = spawnSync(
      process.execPath,
      ['scripts/require-node.mjs', 'test/fixtures/print-argv.mjs', '--persist-to', 'x'],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      script: path.join(REPO_ROOT, 'test/fixtures/print-argv.mjs'),
      args: ['--persist-to', 'x'],
    });
  });

  it('the server bundle names it instead of failing to link', () => {
    const run = runAsNode20([SERVER_BUNDLE]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Node 20.20.2 is too old: the CMS needs Node ${required} or newer`);
    expect(run.stderr).not.toContain('SyntaxError');
  });
});
