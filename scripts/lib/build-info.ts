import { execFileSync } from 'node:child_process';

/**
 * What /v1/system/version reports besides package.json's version. The
 * commit comes from git, or from SOURCE_COMMIT where the build has no .git
 * (the Dockerfile passes it as a build argument).
 */
export interface BuildStamp {
  commit: string;
  builtAt: string;
}

export function buildStamp(): BuildStamp {
  let commit = process.env.SOURCE_COMMIT || 'unknown';
  if (!process.env.SOURCE_COMMIT) {
    try {
      commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      // not a git checkout (an unpacked release, a container build): keep 'unknown'
    }
  }
  return { commit, builtAt: new Date().toISOString() };
}
