import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../worker/src/app/services.js';

/**
 * Every public read of content declares how caches may keep it
 * (`cache` on its route: ETag, 304, Cache-Control; docs/caching.md), so a
 * new resource cannot ship uncached by omission. The exceptions are reads
 * that must never be kept or say something about the service itself.
 */
const NOT_CACHED = new Set([
  '/healthz',
  '/readyz',
  '/v1/system/version',
  '/v1/openapi.json',
  '/v1/auth/registration',
  // A preview link: no-store, it may show an offline article.
  '/v1/preview/{token}',
  // Uploaded images carry validators of their own, from the row (static-images.routes.ts).
  '/static/uploadedImages/{filename}',
]);

describe('public reads and caching', () => {
  it('has every public GET declare its cache policy, but for the reads that must not be kept', () => {
    const publicReads = ROUTES.filter((r) => r.method === 'get' && r.allow === 'public');
    const undeclared = publicReads.filter((r) => !r.cache && !NOT_CACHED.has(r.path)).map((r) => r.path);
    expect(undeclared).toEqual([]);
    const declaredAnyway = publicReads.filter((r) => r.cache && NOT_CACHED.has(r.path)).map((r) => r.path);
    expect(declaredAnyway).toEqual([]);
  });
});
