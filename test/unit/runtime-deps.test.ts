import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptOf, RUNTIME_PACKAGES, runtimeClosure } from '../../scripts/lib/runtime-deps.ts';
import { REPO_ROOT } from '../support/paths.js';

describe('the container’s runtime packages (scripts/lib/runtime-deps.ts)', () => {
  it('follow package-lock.json as npm resolves it: nested copies first, then the top level', () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/a': { dependencies: { b: '^1', c: '^1' } },
        'node_modules/a/node_modules/b': { version: '2.0.0', dependencies: { c: '^1' } },
        'node_modules/b': { version: '1.0.0' },
        'node_modules/c': { optionalDependencies: { 'not-this-platform': '^1' } },
        'node_modules/unrelated': {},
      },
    };
    expect(runtimeClosure(lock, ['a'])).toEqual(['node_modules/a', 'node_modules/a/node_modules/b', 'node_modules/c']);
    const scoped = {
      packages: {
        'node_modules/a': { dependencies: { '@s/p': '^1' } },
        'node_modules/a/node_modules/@s/p': { dependencies: { q: '^1' } },
        'node_modules/a/node_modules/q': { version: '2.0.0' },
        'node_modules/q': { version: '1.0.0' },
      },
    };
    expect(runtimeClosure(scoped, ['a'])).toEqual([
      'node_modules/a',
      'node_modules/a/node_modules/@s/p',
      'node_modules/a/node_modules/q',
    ]);
    expect(() => runtimeClosure(lock, ['missing'])).toThrow(/not in package-lock.json/);
    expect(() => runtimeClosure({ packages: { 'node_modules/x': { dependencies: { y: '1' } } } }, ['x'])).toThrow(
      /needs y/,
    );
  });

  it('are, in this lock file, production packages only, the roots among them', () => {
    const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8'));
    const closure = runtimeClosure(lock);
    for (const root of RUNTIME_PACKAGES) expect(closure).toContain(`node_modules/${root}`);
    for (const pkg of closure) expect(lock.packages[pkg].dev, pkg).toBeUndefined();
    expect(closure.length).toBeLessThan(30);
  });

  it('keep of better-sqlite3 its JavaScript and the one binary for the platform', () => {
    expect(keptOf('node_modules/better-sqlite3', 'linux-x64')).toEqual([
      'package.json',
      'LICENSE',
      'lib',
      'prebuilds/linux-x64.node',
    ]);
    expect(keptOf('node_modules/mysql2', 'linux-x64')).toBeNull();
  });
});
