import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assetHeadersFile, IMMUTABLE } from '../../admin-qwik/tools/asset-headers.js';
import { SECURITY_HEADERS } from '../../worker/src/http/middleware/security-headers.js';
import { REPO_ROOT } from '../support/paths.js';

/** The strings of wrangler.toml's `run_worker_first` array (a flat list of strings: no parser needed). */
function runWorkerFirst(): string[] {
  const toml = readFileSync(path.join(REPO_ROOT, 'wrangler.toml'), 'utf8');
  const list = /^run_worker_first = \[([^\]]*)\]/m.exec(toml)?.[1]?.replace(/#.*$/gm, '');
  if (list === undefined) throw new Error('wrangler.toml has no run_worker_first array');
  return [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
}

describe('Workers static assets (wrangler.toml, dist/_headers)', () => {
  it('runs the Worker first for every path but the build output, the API reference and the public files', () => {
    const publicFiles = readdirSync(path.join(REPO_ROOT, 'admin-qwik/public')).map((name) => `!/${name}`);
    expect(runWorkerFirst().sort()).toEqual(
      [
        '/*',
        '!/build/*',
        '!/assets/*',
        '!/q-data.json',
        '!/*/q-data.json',
        '!/q-manifest.json',
        '!/api-reference/*',
        ...publicFiles,
      ].sort(),
    );
  });

  it('gives every file the asset layer serves the security headers the Worker sends, and hashed files immutable', () => {
    const rules = new Map<string, string[]>();
    let current = '';
    for (const line of assetHeadersFile(SECURITY_HEADERS).split('\n')) {
      if (line.startsWith('#') || line === '') continue;
      if (line.startsWith('  ')) rules.get(current)!.push(line.trim());
      else {
        current = line;
        rules.set(current, []);
      }
    }
    expect([...rules.keys()]).toEqual(['/*', '/build/*', '/assets/*']);
    expect(rules.get('/*')).toEqual(SECURITY_HEADERS.map(([name, value]) => `${name}: ${value}`));
    for (const hashed of ['/build/*', '/assets/*']) expect(rules.get(hashed)).toEqual([`Cache-Control: ${IMMUTABLE}`]);
  });
});
