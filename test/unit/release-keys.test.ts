import { describe, expect, it } from 'vitest';
import { createHttpUpdateFeed } from '../../worker/src/adapters/update/http-update-feed.js';
import { createMemoryUpdateState } from '../../worker/src/adapters/update/memory-update-state.js';
import { base64urlDecode, keyIdOf } from '../../worker/src/core/releases/bytes.js';
import { activeKeyCount, PINNED_RELEASE_KEYS, parsePinnedKeys } from '../../worker/src/core/releases/pinned-keys.js';
import file from '../../worker/src/core/releases/release-keys.json' with { type: 'json' };
import {
  NO_TRUSTED_KEY_MESSAGE,
  UpdateService,
  UpdatesUnavailableError,
} from '../../worker/src/core/releases/update.service.js';
import { makeKey } from '../support/release-fixtures.js';

describe('the committed release keys (release-keys.json)', () => {
  it('lists well-formed, distinct keys whose ids match their public keys', async () => {
    expect(PINNED_RELEASE_KEYS.length).toBe(file.keys.length);
    for (const k of PINNED_RELEASE_KEYS) {
      const raw = base64urlDecode(k.publicKey);
      expect(raw.byteLength).toBe(32);
      expect(await keyIdOf(raw)).toBe(k.keyId);
      await crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
    }
  });

  it('trusts no key whose private half is lost (keys 3 and 4 are retired)', () => {
    for (const id of ['26773b6dcfda6aee', '9e3fee411f0d70c8'])
      expect(PINNED_RELEASE_KEYS.find((k) => k.keyId === id)?.status).toBe('retired');
    expect(activeKeyCount(PINNED_RELEASE_KEYS)).toBe(0);
  });

  it('refuses a malformed key file with the key and the rule it breaks', () => {
    const good = { keyId: '0123456789abcdef', publicKey: 'A'.repeat(43), status: 'active' };
    expect(parsePinnedKeys({ keys: [good] })).toEqual([good]);
    expect(() => parsePinnedKeys({})).toThrow('"keys" must be a list');
    expect(() => parsePinnedKeys({ keys: [{ ...good, keyId: 'XYZ' }] })).toThrow('key 1: keyId');
    expect(() => parsePinnedKeys({ keys: [{ ...good, publicKey: 'short' }] })).toThrow('key 1: publicKey');
    expect(() => parsePinnedKeys({ keys: [{ ...good, status: 'trusted' }] })).toThrow('key 1: status');
    expect(() => parsePinnedKeys({ keys: [good, good] })).toThrow('key 2: keyId 0123456789abcdef is listed twice');
  });
});

describe('an update service without an active key', () => {
  it('says plainly that no trusted key is configured, and never reads the feed', async () => {
    const k = await makeKey();
    let reads = 0;
    const service = new UpdateService({
      feed: createHttpUpdateFeed('https://updates.example/feed.json', (async () => {
        reads += 1;
        return new Response('{}');
      }) as unknown as typeof fetch),
      store: createMemoryUpdateState(),
      stager: { stage: async () => {} },
      clock: { now: () => new Date('2026-11-20T00:00:00Z') },
      logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      currentVersion: '1.0.0',
      pinnedKeys: [k.pinned('retired')],
    });
    expect((await service.status()).trustedKeys).toBe(0);
    for (const attempt of [() => service.check(), () => service.download()]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpdatesUnavailableError);
      expect((error as Error).message).toBe(NO_TRUSTED_KEY_MESSAGE);
    }
    expect(reads).toBe(0);
  });
});
