import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What a Node release carries, relative to the repository root. Unpacked
 * into a directory, `npm ci --omit=dev` there and `node dist/node/server.mjs`
 * (with CMS_APP_ROOT pointing at it) serve the CMS; `npm start` there runs
 * the supervisor (scripts/start.ts → scripts/supervisor.ts).
 */
export const NODE_RELEASE_PATHS = [
  'dist/node',
  'admin-qwik/dist',
  'package.json',
  'package-lock.json',
  'scripts/require-node.mjs',
  'scripts/start.ts',
  'scripts/lib/forward-signals.ts',
  'scripts/lib/install.ts',
  'scripts/supervisor.ts',
  'scripts/cms.ts',
  'scripts/lib/supervisor',
];
const MIGRATION_DIALECTS = ['sqlite', 'mysql', 'postgres'];

export function releasePaths(root: string): string[] {
  const paths = [...NODE_RELEASE_PATHS, ...MIGRATION_DIALECTS.map((d) => `drizzle/${d}/migrations`)];
  for (const p of paths)
    if (!existsSync(path.join(root, p))) throw new Error(`${p} is missing; build first (npm run build)`);
  if (!existsSync(path.join(root, 'dist/node/server.mjs')))
    throw new Error('dist/node/server.mjs is missing; build first');
  if (!existsSync(path.join(root, 'admin-qwik/dist/index.html')))
    throw new Error('admin-qwik/dist/index.html is missing; build first');
  return paths;
}

function sourceDateEpoch(root: string): number {
  if (process.env.SOURCE_DATE_EPOCH) return Number(process.env.SOURCE_DATE_EPOCH);
  try {
    return Number(
      execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
  } catch {
    return 0;
  }
}

/**
 * A gzip'd tar of releasePaths(root), reproducible for the same inputs
 * (sorted names, owner 0, one mtime, a gzip header without a time). Needs
 * GNU tar. Returns { name, sha256, length } of the written file.
 */
export function writeNodeTarball(root: string, outFile: string): FileDescription {
  const paths = releasePaths(root);
  const tar = spawnSync(
    'tar',
    [
      '--sort=name',
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      `--mtime=@${sourceDateEpoch(root)}`,
      '--exclude=node_modules',
      '-cf',
      '-',
      ...paths,
    ],
    { cwd: root, maxBuffer: 2 * 1024 * 1024 * 1024 },
  );
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr?.toString() ?? tar.error?.message}`);
  const gz = gzipSync(tar.stdout, { level: 9 });
  writeFileSync(outFile, gz);
  return describeFile(outFile);
}

export interface FileDescription {
  name: string;
  sha256: string;
  length: number;
}

export function describeFile(file: string): FileDescription {
  const bytes = readFileSync(file);
  return { name: path.basename(file), sha256: createHash('sha256').update(bytes).digest('hex'), length: bytes.length };
}

/** Every file name in a directory tree (for tests and --list). */
export function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((e): string[] => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? listFiles(p, base) : [path.relative(base, p)];
  });
}
