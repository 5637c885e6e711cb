import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isPatched, POSTGRES_VERSION, patchQueueSource, QUEUE_FILES } from './lib/postgres-queue-patch.ts';

/**
 * `postinstall`: applies the pinned postgres.js queue fix to node_modules
 * (scripts/lib/postgres-queue-patch.ts, docs/postgres-driver.md). Idempotent.
 * Fails the install when the installed postgres is not the pinned version:
 * someone must then check whether upstream fixed the queue and update or drop
 * the patch, rather than run silently without it.
 */
const dir = path.resolve(import.meta.dirname, '../node_modules/postgres');
const manifest = path.join(dir, 'package.json');
const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
if (version !== POSTGRES_VERSION) {
  console.error(
    `patch-dependencies: postgres is ${version}, the queue patch is for ${POSTGRES_VERSION}. ` +
      'See docs/postgres-driver.md: check the upstream fix, then update or remove scripts/lib/postgres-queue-patch.ts.',
  );
  process.exit(1);
}
let changed = 0;
for (const rel of QUEUE_FILES) {
  const file = path.join(dir, rel);
  const source = readFileSync(file, 'utf8');
  if (isPatched(source)) continue;
  writeFileSync(file, patchQueueSource(source, rel));
  changed++;
}
if (changed > 0) console.log(`patch-dependencies: postgres ${version} queue fix applied to ${changed} file(s)`);
