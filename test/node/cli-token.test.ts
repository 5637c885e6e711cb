import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode, CLI_BUNDLE } from '../../scripts/build-node.ts';
import { REPO_ROOT } from '../support/paths.js';
import { registerVerifiedOwner, type ServerProcess, startServer } from '../support/server-process.js';

/**
 * The operator's tool takes the owner's token from CMS_TOKEN first: `npm run
 * cms -- --token …` has npm print the whole command line, token included,
 * and `ps` shows it to every user of the machine. --token still works, with
 * a warning saying so.
 */
function cms(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI_BUNDLE, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('the operator tool and its token', () => {
  let dir: string;
  let server: ServerProcess;
  let token: string;
  beforeAll(async () => {
    await buildNode();
    dir = await mkdtemp(path.join(tmpdir(), 'cms-cli-token-'));
    server = await startServer(dir, {});
    token = await registerVerifiedOwner(server.url, server.output);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('names CMS_TOKEN in its help before --token, and why', () => {
    const help = cms({}, '--help');
    expect(help.status).toBe(0);
    expect(help.out.indexOf('CMS_TOKEN')).toBeGreaterThan(-1);
    expect(help.out.indexOf('CMS_TOKEN')).toBeLessThan(help.out.indexOf('--token'));
    expect(help.out).toContain('prefer CMS_TOKEN');
  });

  it('calls the server with CMS_TOKEN, silently', () => {
    const run = cms({ CMS_TOKEN: token }, 'users', '--url', server.url);
    expect(run.status, run.err).toBe(0);
    expect(run.out).toContain('owner@example.com');
    expect(run.err).toBe('');
  });

  it('still takes --token, warning that the command line shows it', () => {
    const run = cms({}, 'users', '--url', server.url, '--token', token);
    expect(run.status, run.err).toBe(0);
    expect(run.out).toContain('owner@example.com');
    expect(run.err).toContain('set CMS_TOKEN instead');
    expect(run.err).not.toContain(token);
  });

  it('asks for CMS_TOKEN when there is no token', () => {
    const run = cms({}, 'users', '--url', server.url);
    expect(run.status).toBe(2);
    expect(run.err).toMatch(/^cms: CMS_TOKEN \(or --token\)/);
  });
});
