import { describe, expect, it } from 'vitest';
import { isPublicPath } from '../../admin-qwik/src/lib/session.js';
import { withoutTrailingSlashes } from '../../admin-qwik/src/lib/url.js';
import { fastestOfEach } from '../support/cpu-time.js';

/** A link to the admin can carry any path: `/\/+$/` took seconds on a long run of slashes. */
describe('admin paths', () => {
  it('drops trailing slashes only', () => {
    expect(withoutTrailingSlashes('/articles///')).toBe('/articles');
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(withoutTrailingSlashes('/a//b')).toBe('/a//b');
    expect(isPublicPath('/login/')).toBe(true);
  });

  it('reads a path of 200,000 slashes in linear time (ratio to a plain path)', () => {
    const hostile = `${'/'.repeat(200_000)}x`;
    const plain = `/${'a'.repeat(200_000)}`;
    const [plainMs, hostileMs] = fastestOfEach(
      () => isPublicPath(plain),
      () => isPublicPath(hostile),
    );
    expect(hostileMs / Math.max(plainMs, 0.2)).toBeLessThan(10);
  });
});
