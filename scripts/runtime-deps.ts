import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keptOf, runtimeClosure } from './lib/runtime-deps.ts';

/**
 * `node scripts/runtime-deps.ts DEST`: copies into DEST/node_modules the
 * packages the Node bundle cannot carry (scripts/lib/runtime-deps.ts) and
 * what they depend on, from this checkout's node_modules as `npm ci`
 * installed them from package-lock.json. The Dockerfile's build stage runs
 * it; the runtime stage copies DEST, so nothing is installed there.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dest = process.argv[2];
if (!dest) throw new Error('usage: node scripts/runtime-deps.ts DEST');

// Debian's glibc, as in the image; Alpine's musl would be `linuxmusl-…`.
const target = `${process.platform}-${process.arch}`;
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
for (const pkg of runtimeClosure(lock)) {
  const from = path.join(root, pkg);
  const to = path.join(dest, pkg);
  const kept = keptOf(pkg, target);
  if (!kept) {
    cpSync(from, to, { recursive: true });
    continue;
  }
  for (const part of kept) {
    if (!existsSync(path.join(from, part))) throw new Error(`${pkg}/${part} is missing: is ${target} supported?`);
    mkdirSync(path.dirname(path.join(to, part)), { recursive: true });
    cpSync(path.join(from, part), path.join(to, part), { recursive: true });
  }
}
console.log(`Copied ${runtimeClosure(lock).length} runtime packages to ${dest}/node_modules`);
