import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, serverNodeFlags } from '../../scripts/lib/supervisor/server-node-flags.ts';
import { REPO_ROOT } from '../support/paths.js';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The words of a command line. */
const words = (command: string) => command.split(/\s+/).filter(Boolean);

// The Dockerfile's CMD is checked with the rest of the image (containers.test.ts).
describe('the Node flags the server runs with', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

  // An npm script is one command line for every Node: it names the flags every supported version takes.
  it.each(['start', 'start:node'])('npm run %s passes them to the node that runs the server', (name) => {
    const command = words(scripts[name] ?? '');
    const node = command.indexOf('node');
    expect(node).toBeGreaterThanOrEqual(0);
    const everyVersion = serverNodeFlags('24.0.0').filter((flag) => serverNodeFlags('22.18.0').includes(flag));
    expect(command.slice(node + 1, node + 1 + everyVersion.length)).toEqual(everyVersion);
  });

  it('names the async context frame on Node 22 and 23 only, where it is a flag (Node 24 has it and refuses the flag)', () => {
    expect(serverNodeFlags('22.18.0')).toContain('--experimental-async-context-frame');
    expect(serverNodeFlags('23.11.1')).toContain('--experimental-async-context-frame');
    expect(serverNodeFlags('24.21.0')).not.toContain('--experimental-async-context-frame');
    expect(serverNodeFlags('26.0.0')).not.toContain('--experimental-async-context-frame');
  });

  it('are taken by this Node, whose AsyncLocalStorage then needs no promise hooks', () => {
    // The hook-based AsyncLocalStorage has `_propagate` (its promise hook's callback); the frame-based one has not.
    const probe = spawnSync(
      process.execPath,
      [
        ...SERVER_NODE_FLAGS,
        '-e',
        'process.stdout.write(typeof require("node:async_hooks").AsyncLocalStorage.prototype._propagate)',
      ],
      { encoding: 'utf8' },
    );
    expect(probe.stderr).toBe('');
    expect(probe.status).toBe(0);
    expect(probe.stdout).toBe('undefined');
  });
});
