import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createR2BlobStore } from '../../worker/src/adapters/blob/r2.blob-store.js';
import { runBlobStoreContract } from '../contract/blob-store.contract.js';

runBlobStoreContract('r2 (workerd, env.MEDIA)', async () => ({
  store: createR2BlobStore(env.MEDIA),
  cleanup: async () => undefined,
}));

describe('r2 blob store faults', () => {
  it('turns a failing binding into unavailable', async () => {
    const broken = new Proxy(env.MEDIA, {
      get(target, property) {
        if (typeof property === 'string' && ['put', 'get', 'head', 'delete', 'list'].includes(property)) {
          return () => Promise.reject(new Error('R2 internal error (10001)'));
        }
        return Reflect.get(target, property);
      },
    });
    const store = createR2BlobStore(broken);
    const calls = [
      () => store.put('a/b.bin', new Uint8Array([1]), 'application/octet-stream'),
      () => store.get('a/b.bin'),
      () => store.head('a/b.bin'),
      () => store.delete('a/b.bin'),
      () => store.list('a/'),
      () => store.ping(),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'unavailable' });
  });
});
