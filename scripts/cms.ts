import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `npm run cms -- <command>`: the operator's command-line tool
 * (worker/src/entry.cli.ts; docs/self-hosting.md#the-operators-tool). In a source checkout the
 * Node bundle is built first when stale; in an unpacked release it is there.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (existsSync(path.join(root, 'worker/src'))) {
  const { buildNode } = await import('./build-node.ts');
  await buildNode();
}
await import(pathToFileURL(path.join(root, 'dist/node/cli.mjs')).href);
