import { describe, expect, it } from 'vitest';
import { buildUrl } from '../../admin-qwik/src/lib/url.js';

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
