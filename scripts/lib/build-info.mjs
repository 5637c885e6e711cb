import { execFileSync } from 'node:child_process';

/** What /v1/system/version reports besides package.json's version. */
export function buildStamp() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // not a git checkout (an unpacked release): keep 'unknown'
  }
  return { commit, builtAt: new Date().toISOString() };
}
