import { describe, expect, it } from 'vitest';
import { isPublicPath, loginHref, safeNext } from '../../admin-qwik/src/lib/session.js';

describe('admin session routing', () => {
  it('knows the public pages, with or without a trailing slash', () => {
    for (const p of ['/login', '/login/', '/register', '/verify', '/reset-password', '/accept-invite'])
      expect(isPublicPath(p)).toBe(true);
    for (const p of ['/', '/articles', '/login/x', '/loginx', '/settings']) expect(isPublicPath(p)).toBe(false);
  });

  it('sends back only to same-site paths after signing in (no open redirect)', () => {
    expect(safeNext('/articles/edit?id=1')).toBe('/articles/edit?id=1');
    for (const bad of [null, '', 'https://evil.test/', '//evil.test/', '/\\evil.test', 'javascript:alert(1)'])
      expect(safeNext(bad)).toBe('/');
    expect(loginHref('/articles?status=online')).toBe('/login?next=%2Farticles%3Fstatus%3Donline');
    for (const none of [undefined, '', '//evil.test', '/login?next=/x', 'https://evil.test'])
      expect(loginHref(none)).toBe('/login');
  });
});
