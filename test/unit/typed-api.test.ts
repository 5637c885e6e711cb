import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildUrl } from '../../admin-qwik/src/lib/url.js';
import { REPO_ROOT } from '../support/paths.js';

describe('admin typed client URLs', () => {
  it('fills path parameters encoded and leaves out unset query values', () => {
    expect(buildUrl('/v1/articles/{id}/seo', { id: 'a/b?c' })).toBe('/v1/articles/a%2Fb%3Fc/seo');
    expect(buildUrl('/v1/activity', undefined, { action: 'auth.login', actorId: undefined, from: '', limit: 20 })).toBe(
      '/v1/activity?action=auth.login&limit=20',
    );
    expect(buildUrl('/v1/activity/export', {}, { format: 'csv', q: 'a&b=c' })).toBe(
      '/v1/activity/export?format=csv&q=a%26b%3Dc',
    );
    expect(() => buildUrl('/v1/api-keys/{id}', {})).toThrow('missing path parameter id');
  });
});

/**
 * One client: every call to the API goes through lib/typed-api.ts, whose
 * paths and answers are typed from the generated description. A screen that
 * fetched by hand, or built an API URL from strings, would be typed by
 * nothing but its own assertion.
 */
describe('the admin reaches the API through lib/typed-api.ts only', () => {
  const SRC = path.join(REPO_ROOT, 'admin-qwik/src');
  const CLIENT = 'lib/typed-api.ts';
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? files(path.join(dir, e.name))
        : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')
          ? [path.join(dir, e.name)]
          : [],
    );

  /** What in `code` talks to the server by hand: a transport, or an API URL put together from strings. */
  function handMade(code: string): string[] {
    const found: string[] = [];
    // The build's own WebAssembly files (image-shrink.ts) are fetched, not the API.
    for (const m of code.matchAll(/\bfetch\(\s*([^)\s,]*)/g)) if (!/WasmUrl$/.test(m[1]!)) found.push(`fetch(${m[1]}`);
    for (const m of code.matchAll(/\b(XMLHttpRequest|EventSource|sendBeacon)\b/g)) found.push(m[1]!);
    for (const m of code.matchAll(/`[^`]*\/(?:v1|readyz|healthz)\b[^`]*\$\{[^`]*`/g)) found.push(m[0]);
    for (const m of code.matchAll(/['"]\/v1\/[^'"]*['"]\s*\+/g)) found.push(m[0]);
    return found;
  }

  it('no screen or helper fetches, or builds an API URL, by hand', () => {
    const problems = files(SRC)
      .filter((f) => path.relative(SRC, f) !== CLIENT)
      .flatMap((f) => handMade(readFileSync(f, 'utf8')).map((what) => `${path.relative(SRC, f)}: ${what}`));
    expect(problems).toEqual([]);
  });

  it('the scanner sees each way around the client (so the check above can fail)', () => {
    expect(
      handMade(
        [
          "await fetch('/v1/articles');",
          'const x = new XMLHttpRequest();',
          'const u = `/v1/articles/\u0024{id}`;',
          "const v = '/v1/user/' + id;",
          'WebAssembly.compileStreaming(fetch(webpWasmUrl));',
          "call('get', '/v1/articles/{id}', { path: { id } });",
        ].join('\n'),
      ),
    ).toEqual(["fetch('/v1/articles'", 'XMLHttpRequest', '`/v1/articles/\u0024{id}`', "'/v1/user/' +"]);
  });
});
