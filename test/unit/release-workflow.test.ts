import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.js';

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}
const workflow = parse(readFileSync(path.join(REPO_ROOT, '.github/workflows/release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } };
  jobs: Record<string, { environment?: string; steps: Step[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);

/** GitHub cannot run here; this checks what would sign and where the key goes. */
describe('the release workflow (.github/workflows/release.yml)', () => {
  it('runs on version tags, in a protected environment', () => {
    expect(workflow.on.push.tags).toEqual(['v*.*.*']);
    expect(Object.values(workflow.jobs).every((j) => j.environment === 'release')).toBe(true);
  });

  it('signs with the repository secret through the environment only, with the real release command', () => {
    const users = steps.filter((s) => JSON.stringify(s).includes('secrets.RELEASE_SIGNING_KEY'));
    expect(users).toHaveLength(1);
    const sign = users[0]!;
    expect(sign.env?.RELEASE_SIGNING_KEY).toBe(['$', '{{ secrets.RELEASE_SIGNING_KEY }}'].join(''));
    expect(sign.run).toContain('npm run release -- build --key-env RELEASE_SIGNING_KEY --out site');
    expect(sign.run).not.toMatch(/RELEASE_SIGNING_KEY\s*>|echo\s+"?\$RELEASE_SIGNING_KEY/);
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.release).toBe('node scripts/require-node.mjs scripts/release.ts');
  });

  it('publishes the artifacts and the feed in one commit to the feed branch', () => {
    const publish = steps.find((s) => s.run?.includes('git push origin HEAD:release-feed'));
    expect(publish?.run).toContain('git add -A');
  });
});
