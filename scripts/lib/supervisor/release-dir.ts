import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import type { Manifest, SignedManifest } from '../../../worker/src/core/releases/manifest.ts';
import { fsyncDir, readJson } from './durable.ts';

/**
 * Turning a staged release (releases/<version>/ with the artifact and its
 * signed manifest, written by the server after verification) into a
 * runnable directory releases/<version>/app/: the artifact's length and
 * SHA-256 are checked again against the manifest, it is unpacked into a
 * scratch directory, given its production dependencies and renamed into
 * place — so app/ exists complete or not at all.
 */
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;
const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const appDirOf = (version: string): string => path.join('releases', version, 'app');

/** A command without blocking the supervisor (it keeps answering signals and its child meanwhile). */
function run(cmd: string, args: string[], cwd: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d).slice(-4000);
    });
    child.on('error', (e) => resolve({ status: null, stderr: e.message }));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export function stagedManifest(installDir: string, version: string): Manifest {
  if (!VERSION.test(version)) throw new Error(`not a version: ${version}`);
  const envelope = readJson<Partial<SignedManifest>>(
    path.join(installDir, 'releases', version, 'release-manifest.json'),
  );
  if (!envelope?.signed)
    throw new Error(`release ${version} is not staged (no releases/${version}/release-manifest.json)`);
  if (envelope.signed.version !== version)
    throw new Error(`releases/${version} holds the manifest of ${envelope.signed.version}`);
  return envelope.signed;
}

/** Returns app/ relative to installDir; `log` reports slow steps, `step(name)` marks them (test failpoints). */
export type SupervisorLog = (message: string, fields?: Record<string, unknown>) => void;

export async function prepareRelease(
  installDir: string,
  version: string,
  log?: SupervisorLog,
  step: (name: string) => void = () => {},
): Promise<string> {
  const manifest = stagedManifest(installDir, version);
  const appRel = appDirOf(version);
  const app = path.join(installDir, appRel);
  if (existsSync(path.join(app, 'dist/node/server.mjs'))) return appRel;
  const artifact = manifest.artifacts?.[0];
  if (!artifact || !FILE.test(artifact.name)) throw new Error(`the manifest of ${version} names no usable artifact`);
  const tarball = path.join(installDir, 'releases', version, artifact.name);
  const bytes = readFileSync(tarball);
  if (bytes.length !== artifact.length || sha256(bytes) !== artifact.sha256) {
    throw new Error(`releases/${version}/${artifact.name} does not match its manifest (length or SHA-256)`);
  }
  const scratch = path.join(installDir, 'releases', version, `.app-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(scratch, { mode: 0o755 });
    const tar = await run(
      'tar',
      ['-xzf', tarball, '-C', scratch, '--no-same-owner', '--no-same-permissions'],
      installDir,
    );
    if (tar.status !== 0) throw new Error(`unpacking ${artifact.name} failed: ${tar.stderr}`);
    const pkg = readJson<{ version?: string }>(path.join(scratch, 'package.json'));
    if (pkg?.version !== version)
      throw new Error(`the artifact's package.json says ${pkg?.version}, its manifest ${version}`);
    if (!existsSync(path.join(scratch, 'dist/node/server.mjs')))
      throw new Error('the artifact has no dist/node/server.mjs');
    step('unpacked');
    const modules = await dependenciesFor(installDir, scratch, log);
    symlinkSync(path.relative(scratch, modules), path.join(scratch, 'node_modules'));
    rmSync(app, { recursive: true, force: true });
    renameSync(scratch, app);
    fsyncDir(path.dirname(app));
    return appRel;
  } catch (e) {
    rmSync(scratch, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Production dependencies are shared by every release with the same
 * package-lock.json: releases/deps/<lock sha256>/node_modules, made once by
 * `npm ci --omit=dev`. The installation the supervisor runs from counts as
 * such a store when its lock file is the same (no install needed then).
 */
async function dependenciesFor(installDir: string, appDir: string, log?: SupervisorLog): Promise<string> {
  const lock = readFileSync(path.join(appDir, 'package-lock.json'));
  const hash = sha256(lock).slice(0, 24);
  const store = path.join(installDir, 'releases', 'deps', hash);
  if (existsSync(path.join(store, 'node_modules'))) return path.join(store, 'node_modules');
  const own = path.join(installDir, 'package-lock.json');
  if (
    existsSync(own) &&
    existsSync(path.join(installDir, 'node_modules')) &&
    sha256(readFileSync(own)).slice(0, 24) === hash
  ) {
    return path.join(installDir, 'node_modules');
  }
  const scratch = `${store}.tmp-${randomBytes(4).toString('hex')}`;
  mkdirSync(scratch, { recursive: true });
  try {
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(appDir, f), path.join(scratch, f));
    log?.('installing production dependencies (npm ci --omit=dev)', { store: path.relative(installDir, store) });
    const npm = await run(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['ci', '--omit=dev', '--no-audit', '--no-fund'],
      scratch,
    );
    if (npm.status !== 0) throw new Error(`npm ci --omit=dev failed: ${npm.stderr.slice(-2000)}`);
    mkdirSync(path.join(scratch, 'node_modules'), { recursive: true }); // npm makes none for a release without dependencies
    rmSync(store, { recursive: true, force: true });
    renameSync(scratch, store);
    return path.join(store, 'node_modules');
  } catch (e) {
    rmSync(scratch, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Removes scratch directories a crash left behind (never a complete app/):
 * the server's half-staged `.staging-*` (it was killed while writing a
 * download), half-unpacked `.app-*`, half-installed dependency stores.
 * Called when no server runs.
 */
export function cleanScratch(installDir: string): void {
  const releases = path.join(installDir, 'releases');
  if (!existsSync(releases)) return;
  for (const name of readdirSync(releases)) {
    const dir = path.join(releases, name);
    if (name.startsWith('.staging-')) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (!statSync(dir).isDirectory()) continue;
    if (name === 'deps') {
      for (const d of readdirSync(dir))
        if (d.includes('.tmp-')) rmSync(path.join(dir, d), { recursive: true, force: true });
      continue;
    }
    for (const d of readdirSync(dir))
      if (d.startsWith('.app-')) rmSync(path.join(dir, d), { recursive: true, force: true });
  }
}
