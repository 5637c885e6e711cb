// Plain JavaScript on purpose: the npm scripts start here so that an older
// Node (which cannot run the .ts scripts: ERR_UNKNOWN_FILE_EXTENSION) gets a
// message naming the version it needs instead. Usage:
//   node scripts/require-node.mjs scripts/start.ts [args…]
// The script then runs in this same process, with process.argv as if it had
// been started directly (so signals reach it and its argv.slice(2) holds).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Kept equal to package.json's engines.node (test/node/node-version.test.ts). */
export const REQUIRED_NODE = [22, 18];

/** Whether `version` ("22.18.0") is at least REQUIRED_NODE. */
export function nodeIsRecentEnough(version) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > REQUIRED_NODE[0] || (major === REQUIRED_NODE[0] && minor >= REQUIRED_NODE[1]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!nodeIsRecentEnough(process.versions.node)) {
    console.error(
      `Node ${process.versions.node} is too old: this project needs Node ${REQUIRED_NODE.join('.')} or newer (node --version; see README, Quick start).`,
    );
    process.exit(1);
  }
  const script = process.argv[2];
  if (!script) {
    console.error('usage: node scripts/require-node.mjs SCRIPT [args…]');
    process.exit(2);
  }
  process.argv.splice(1, 2, path.resolve(script));
  await import(pathToFileURL(path.resolve(script)).href);
}
