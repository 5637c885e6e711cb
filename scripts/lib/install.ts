/**
 * How `npm start` installs a source checkout's dependencies.
 *
 * With nothing installed yet (a fresh clone): `npm ci`, which installs
 * exactly what package-lock.json names and never writes it. `npm install`
 * rewrites the lock file as it finds the packages (it once added a
 * `hasInstallScript` line to a fresh clone's lock), leaving a checkout that
 * only ran `npm start` with a change to commit.
 *
 * With an install older than package.json: `npm install`, which keeps what is
 * there and adds what is missing (`npm ci` would delete node_modules first).
 *
 * Either way with the dev dependencies: a source checkout builds itself, even
 * when NODE_ENV=production.
 */
export function installArgs(nothingInstalled: boolean): string[] {
  return [nothingInstalled ? 'ci' : 'install', '--include=dev', '--no-audit', '--no-fund'];
}

export const npmCommand = (platform: NodeJS.Platform = process.platform): string =>
  platform === 'win32' ? 'npm.cmd' : 'npm';
