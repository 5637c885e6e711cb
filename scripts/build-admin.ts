import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeApiReference } from '../admin-qwik/tools/api-reference.ts';
import { assetHeadersFile } from '../admin-qwik/tools/asset-headers.ts';
import { externalizeInlineScripts, findCspProblems, sha256Prefix } from '../admin-qwik/tools/csp-html.ts';
import { SECURITY_HEADERS } from '../worker/src/http/middleware/security-headers.ts';

/**
 * Builds the admin SPA into admin-qwik/dist/: Qwik's client build, then the
 * static generation of every route, then the CSP pass that moves Qwik's
 * inline scripts into files under dist/build/inline/ and refuses to finish
 * while any inline executable script, inline handler or javascript: URL
 * remains.
 *
 *   node scripts/build-admin.ts          build when a source is newer than the last build
 *   node scripts/build-admin.ts --force  build regardless
 *
 * The build goes to a scratch directory that replaces dist/ only when every
 * step has passed, so a failure leaves the previous dist/ in place. A lock
 * keeps concurrent invocations (tests, `npm run build`) from interleaving.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const admin = path.join(root, 'admin-qwik');
const dist = path.join(admin, 'dist');
const tmp = path.join(admin, 'tmp');
const stampFile = path.join(tmp, 'build-admin.stamp');
const lockDir = path.join(tmp, 'build-admin.lock');
const force = process.argv.includes('--force');

/** Everything whose change can change dist/. */
const require = createRequire(import.meta.url);
const INPUTS = [
  path.join(admin, 'src'),
  path.join(admin, 'public'),
  path.join(admin, 'adapters'),
  path.join(admin, 'tools'),
  path.join(admin, 'vite.config.ts'),
  path.join(admin, 'tsconfig.json'),
  fileURLToPath(import.meta.url),
  // The security headers go into dist/_headers.
  path.join(root, 'worker/src/http/middleware/security-headers.ts'),
  // A dependency upgrade changes the output too.
  path.join(root, 'node_modules/@builder.io/qwik/package.json'),
  path.join(root, 'node_modules/@builder.io/qwik-city/package.json'),
  path.join(root, 'node_modules/vite/package.json'),
  // The API reference page's renderer (admin-qwik/tools/api-reference.ts).
  path.join(root, 'node_modules/swagger-ui-dist/package.json'),
];

/** Pages a good build must contain (the servers' routing depends on them). */
const REQUIRED_PAGES = ['index.html', 'settings/index.html', '404.html'];

function newestInput(): number {
  let newest = 0;
  const visit = (p: string): void => {
    const s = statSync(p, { throwIfNoEntry: false });
    if (!s) return;
    if (s.isDirectory()) for (const entry of readdirSync(p)) visit(path.join(p, entry));
    else newest = Math.max(newest, s.mtimeMs);
  };
  INPUTS.forEach(visit);
  return newest;
}

function isUpToDate(): boolean {
  if (![...REQUIRED_PAGES, '_headers'].every((page) => existsSync(path.join(dist, page)))) return false;
  const stamp = statSync(stampFile, { throwIfNoEntry: false });
  return !!stamp && stamp.mtimeMs >= newestInput();
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** mkdir is atomic: whoever creates the directory holds the lock. A dead holder's lock is taken over. */
function acquireLock(): void {
  mkdirSync(tmp, { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = lockHolder();
    // A holder that died, or one that never got to write its pid (crashed right after mkdir).
    if (holder === null || (holder && !isAlive(holder))) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`admin build lock ${lockDir} held by pid ${holder || '?'} for too long`);
    sleep(250);
  }
}

/** The pid in the lock; 0 while it is being written; null when a pid never came. */
function lockHolder(): number | null {
  try {
    return Number(readFileSync(path.join(lockDir, 'pid'), 'utf8')) || 0;
  } catch {
    const s = statSync(lockDir, { throwIfNoEntry: false });
    return s && Date.now() - s.mtimeMs > 10_000 ? null : 0;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseLock(): void {
  rmSync(lockDir, { recursive: true, force: true });
}

function vite(configFile: string, outDir: string): void {
  const viteBin = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');
  const result = spawnSync(process.execPath, [viteBin, 'build', '-c', configFile], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ADMIN_QWIK_OUT_DIR: outDir, NODE_ENV: 'production' },
  });
  if (result.status !== 0)
    throw new Error(`vite build -c ${path.relative(root, configFile)} failed (exit ${result.status ?? result.signal})`);
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Moves inline scripts out of every page, then checks every page. Returns [pages, scripts moved]. */
function applyCsp(outDir: string): [pages: number, moved: number] {
  const inlineDir = path.join(outDir, 'build', 'inline');
  mkdirSync(inlineDir, { recursive: true });
  const save = (code: string): string => {
    const name = `${sha256Prefix(code)}.js`;
    writeFileSync(path.join(inlineDir, name), code);
    return `/build/inline/${name}`;
  };
  const exists = (url: string): boolean => {
    const rel = decodeURIComponent(new URL(url, 'http://admin.invalid/').pathname);
    return existsSync(path.join(outDir, rel)) && statSync(path.join(outDir, rel)).isFile();
  };
  const pages = htmlFiles(outDir);
  let moved = 0;
  const problems: string[] = [];
  for (const file of pages) {
    const result = externalizeInlineScripts(readFileSync(file, 'utf8'), save);
    writeFileSync(file, result.html);
    moved += result.moved;
    for (const p of findCspProblems(result.html, exists)) problems.push(`${path.relative(outDir, file)}: ${p}`);
  }
  if (problems.length) throw new Error(`the admin would break under its CSP:\n  ${problems.join('\n  ')}`);
  return [pages.length, moved];
}

function build(): void {
  const started = Date.now();
  const outDir = path.join(tmp, `dist-${process.pid}`);
  rmSync(outDir, { recursive: true, force: true });
  try {
    vite(path.join(admin, 'vite.config.ts'), outDir);
    vite(path.join(admin, 'adapters/static/vite.config.ts'), outDir);
    const missing = REQUIRED_PAGES.filter((page) => !existsSync(path.join(outDir, page)));
    if (missing.length) throw new Error(`static generation did not write ${missing.join(', ')}`);
    writeApiReference(outDir);
    const [pages, moved] = applyCsp(outDir);
    // On Workers the asset layer answers hashed files without the Worker: it sends the same headers.
    writeFileSync(path.join(outDir, '_headers'), assetHeadersFile(SECURITY_HEADERS));
    // Swap: the old dist/ stays complete until the new one is ready.
    const old = path.join(tmp, `dist-old-${process.pid}`);
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(outDir, dist);
    rmSync(old, { recursive: true, force: true });
    writeFileSync(stampFile, `${new Date().toISOString()}\n`);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Admin built in ${seconds} s: ${pages} pages, ${moved} inline scripts moved to build/inline/, CSP check passed.`,
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (!force && isUpToDate()) {
  console.log('Admin up to date: admin-qwik/dist');
} else {
  try {
    acquireLock();
    try {
      // Another process may have finished the same build while we waited.
      if (!force && isUpToDate()) console.log('Admin up to date: admin-qwik/dist');
      else {
        rmSync(stampFile, { force: true });
        build();
      }
    } finally {
      releaseLock();
    }
  } catch (err) {
    console.error(`Admin build failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
