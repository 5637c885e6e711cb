import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `npm start`.
 *   - A source checkout (a fresh clone): install dependencies when missing,
 *     build what is stale, then run the Node server in this process (it
 *     applies migrations and handles SIGTERM/SIGINT itself).
 *   - In production (NODE_ENV=production) or in an unpacked release (no
 *     sources to build): run the supervisor, which runs the current release
 *     as a child and can switch releases (docs/releases.md).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`Node ${process.versions.node} is too old: this project needs Node 22.18 or newer (see README).`);
  process.exit(1);
}

// `.env` in the working directory fills in what the environment leaves unset
// (NODE_ENV included), for this process and the server or supervisor it
// starts; worker/src/config/env-file.node.ts does the same for a server run
// directly. Inline: an unpacked release has no worker/src to import from.
if (existsSync('.env')) process.loadEnvFile('.env');

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const fromSource = existsSync(path.join(root, 'worker/src'));
if (fromSource) {
  const installed = path.join(root, 'node_modules/.package-lock.json');
  const manifest = path.join(root, 'package.json');
  if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(manifest).mtimeMs) {
    console.log('Installing dependencies…');
    // A source checkout builds itself: the build tools are dev dependencies, wanted even when NODE_ENV=production.
    run(npm, ['install', '--include=dev', '--no-audit', '--no-fund']);
  }
  run(process.execPath, [path.join(root, 'scripts/build.ts')]);
}

const entry = process.env.NODE_ENV === 'production' || !fromSource ? 'scripts/supervisor.ts' : 'dist/node/server.mjs';
await import(pathToFileURL(path.join(root, entry)).href);
