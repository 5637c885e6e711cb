import { describe, expect, it } from 'vitest';
import { createMemoryReadCache } from '../../worker/src/adapters/cache/memory.read-cache.js';

const answer = (body: string) => ({ body, contentType: 'application/json', etag: '"e"' });

describe('memory read cache', () => {
  it('keeps the body as its UTF-8 bytes, encoded once', () => {
    const cache = createMemoryReadCache();
    cache.set('/a', answer('{"title":"Crème brûlée ✓"}'));
    const hit = cache.get('/a');
    expect(hit?.body).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(hit?.body)).toBe('{"title":"Crème brûlée ✓"}');
    expect(hit).toMatchObject({ contentType: 'application/json', etag: '"e"' });
  });

  it('counts its budget in bytes, not characters, and lets the least recently used go first', () => {
    // Each body: 100 characters, 200 bytes (é is two bytes in UTF-8).
    const body = 'é'.repeat(100);
    const cache = createMemoryReadCache({ maxBytes: 8 * 250 });
    for (let i = 0; i < 10; i++) cache.set(`/${i}`, answer(body));
    // 2,000 bytes hold ten bodies of 200 bytes; an eleventh pushes out the oldest.
    expect(cache.size()).toBe(10);
    cache.get('/0');
    cache.set('/10', answer(body));
    expect(cache.get('/1')).toBeUndefined();
    expect(cache.get('/0')).toBeDefined();
  });

  it('does not keep an answer larger than an eighth of its budget', () => {
    const cache = createMemoryReadCache({ maxBytes: 8 * 100 });
    cache.set('/big', answer('é'.repeat(60)));
    expect(cache.get('/big')).toBeUndefined();
    cache.set('/small', answer('e'.repeat(60)));
    expect(cache.get('/small')).toBeDefined();
  });
});
