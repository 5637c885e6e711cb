import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isPatched, PATCHED_FILES, POSTGRES_VERSION, patchPostgresSource } from './lib/postgres-patches.ts';

/**
 * `postinstall`: applies the pinned postgres.js fixes (the queue, the write
 * after close) to node_modules (scripts/lib/postgres-patches.ts,
 * docs/postgres-driver.md). Idempotent.
 * Fails the install when the installed postgres is not the pinned version:
 * someone must then check whether upstream fixed the queue and update or drop
 * the patch, rather than run silently without it.
 */
const dir = path.resolve(import.meta.dirname, '../node_modules/postgres');
const manifest = path.join(dir, 'package.json');
const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
if (version !== POSTGRES_VERSION) {
  console.error(
    `patch-dependencies: postgres is ${version}, the patches are for ${POSTGRES_VERSION}. ` +
      'See docs/postgres-driver.md: check the upstream fixes, then update or remove scripts/lib/postgres-patches.ts.',
  );
  process.exit(1);
}
let changed = 0;
for (const rel of PATCHED_FILES) {
  const file = path.join(dir, rel);
  const source = readFileSync(file, 'utf8');
  if (isPatched(source)) continue;
  writeFileSync(file, patchPostgresSource(source, rel));
  changed++;
}
if (changed > 0) console.log(`patch-dependencies: postgres ${version} fixes applied to ${changed} file(s)`);
