import { describe, expect, it } from 'vitest';
import { isPublicPath, loginHref, safeNext } from '../../admin-qwik/src/lib/session.js';

describe('admin session routing', () => {
  it('knows the public pages, with or without a trailing slash', () => {
    for (const p of ['/login', '/login/', '/register', '/verify', '/reset-password', '/accept-invite'])
      expect(isPublicPath(p)).toBe(true);
    for (const p of ['/', '/articles', '/login/x', '/loginx', '/settings']) expect(isPublicPath(p)).toBe(false);
  });

  const ORIGIN = 'https://cms.example.com';

  it.each([
    ['/articles/edit?id=1', '/articles/edit?id=1'],
    ['/media?q=a%20b#top', '/media?q=a%20b#top'],
    ['/articles?next=//evil.example', '/articles?next=//evil.example'],
    [`${ORIGIN}/settings#updates`, '/settings#updates'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/%09/evil.example', '/%09/evil.example'],
    ['https:settings', '/settings'],
    ['/a/../b', '/b'],
  ])('keeps %j on the origin as %j', (raw, path) => {
    expect(safeNext(raw, ORIGIN)).toBe(path);
  });

  it.each([
    null,
    '',
    'https://evil.example/',
    'http://cms.example.com/',
    'https://cms.example.com:444/',
    'https://cms.example.com.evil.example/',
    '//evil.example/',
    '///evil.example/',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    '/\t/evil.example/phish',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    ' //evil.example',
    '/\t\\evil.example',
    '/.//evil.example',
    '/./\\evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http:evil.example',
    'ftp://evil.example/',
    'https://user@evil.example/',
    'https://cms.example.com@evil.example/',
  ])('refuses %j: the dashboard instead', (raw) => {
    expect(safeNext(raw, ORIGIN)).toBe('/');
  });

  it('builds sign-in links only to same-site paths', () => {
    expect(loginHref('/articles?status=online')).toBe('/login?next=%2Farticles%3Fstatus%3Donline');
    for (const none of [undefined, '', '//evil.test', '/login?next=/x', 'https://evil.test'])
      expect(loginHref(none)).toBe('/login');
  });
});
