import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/lib/supervisor/server-node-flags.ts';
import { REPO_ROOT } from '../support/paths.js';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The words of a command line. */
const words = (command: string) => command.split(/\s+/).filter(Boolean);

// The Dockerfile's CMD is checked with the rest of the image (containers.test.ts).
describe('the Node flags the server runs with', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

  it.each(['start', 'start:node'])('npm run %s passes them to the node that runs the server', (name) => {
    const command = words(scripts[name] ?? '');
    const node = command.indexOf('node');
    expect(node).toBeGreaterThanOrEqual(0);
    expect(command.slice(node + 1, node + 1 + SERVER_NODE_FLAGS.length)).toEqual(SERVER_NODE_FLAGS);
  });
});
