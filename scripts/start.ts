import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runStep } from './lib/forward-signals.ts';
import { installArgs, npmCommand } from './lib/install.ts';

/**
 * `npm start`.
 *   - A source checkout (a fresh clone): install dependencies when missing,
 *     build what is stale, then run the Node server in this process (it
 *     applies migrations and handles SIGTERM/SIGINT itself).
 *   - In production (NODE_ENV=production) or in an unpacked release (no
 *     sources to build): run the supervisor, which runs the current release
 *     as a child and can switch releases (docs/releases.md).
 * The npm script `exec`s this (package.json), so a SIGTERM sent to `npm start`
 * reaches this process through npm rather than only the shell between them;
 * scripts/require-node.mjs has checked the Node version first.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// `.env` in the working directory fills in what the environment leaves unset
// (NODE_ENV included), for this process and the server or supervisor it
// starts; worker/src/config/env-file.node.ts does the same for a server run
// directly. Inline: an unpacked release has no worker/src to import from.
if (existsSync('.env')) process.loadEnvFile('.env');

const fromSource = existsSync(path.join(root, 'worker/src'));
if (fromSource) {
  const installed = path.join(root, 'node_modules/.package-lock.json');
  const manifest = path.join(root, 'package.json');
  const nothingInstalled = !existsSync(installed);
  if (nothingInstalled || statSync(installed).mtimeMs < statSync(manifest).mtimeMs) {
    console.log('Installing dependencies…');
    await runStep(npmCommand(), installArgs(nothingInstalled), { cwd: root });
  }
  await runStep(process.execPath, [path.join(root, 'scripts/build.ts')], { cwd: root });
}

const entry = process.env.NODE_ENV === 'production' || !fromSource ? 'scripts/supervisor.ts' : 'dist/node/server.mjs';
await import(pathToFileURL(path.join(root, entry)).href);
