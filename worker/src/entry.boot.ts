import { lstatSync, mkdirSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The Node server's entry (dist/node/server.mjs): turns on Node's on-disk
 * compile cache, then loads the server (entry.node.ts). The cache must be on
 * before the server's modules are compiled, hence this separate first step.
 *
 * Compiling the bundle was the largest single part of a start-up (≈ 20 ms of
 * CPU of ≈ 170 ms on the bench machine, docs/benchmarks.md, start-up): from
 * the second start on, V8 reads the compiled code back instead. Entries are
 * checked against the source, so a new release never runs stale code, and a
 * cache that cannot be written only means compiling as before.
 *
 * Before anything else it checks the Node version, so an older Node gets a
 * message naming the one needed instead of a link error from a newer API
 * (hence `node:module` imported whole: a named import of an export an older
 * Node lacks fails before any line here runs). scripts/require-node.mjs
 * checks the same for the npm scripts; test/node/node-version.test.ts keeps
 * both equal to package.json's engines.
 */
const REQUIRED_NODE = [22, 18] as const;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < REQUIRED_NODE[0] || (major === REQUIRED_NODE[0] && minor < REQUIRED_NODE[1])) {
  process.stderr.write(
    `Node ${process.versions.node} is too old: the CMS needs Node ${REQUIRED_NODE.join('.')} or newer (node --version).\n`,
  );
  process.exit(1);
}

function compileCacheDir(): string | undefined {
  // The operator's folder (Node has already turned the cache on there), or none.
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // Not Node's shared default (tmp/node-compile-cache): what is in the cache
  // is run, so it lives in a folder of this user's that no one else may write.
  const uid = process.getuid?.();
  const dir = path.join(tmpdir(), uid === undefined ? 'edge-cms-compile-cache' : `edge-cms-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = lstatSync(dir);
    if (!s.isDirectory() || (uid !== undefined && (s.uid !== uid || (s.mode & 0o077) !== 0))) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

const dir = compileCacheDir();
if (dir !== undefined) nodeModule.enableCompileCache(dir);

await import('./entry.node.js');
