import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, secretSealer, signWebhook } from '../../worker/src/features/webhooks/webhook-crypto.js';
import { verifyStandardWebhook } from '../support/standard-webhooks.js';

const SERVICE_SECRET = 'a-service-secret-of-at-least-32-characters';
const ID = '0190a000-0000-7000-8000-000000000001';

describe('webhook signatures and secrets', () => {
  it('makes whsec_ secrets of 32 random bytes, all different', () => {
    const secrets = Array.from({ length: 50 }, newWebhookSecret);
    for (const s of secrets) {
      expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(atob(s.slice(6))).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(50);
  });

  it('signs what the independent verifier accepts, and nothing it was not given', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.nat(2_000_000_000),
        fc.string({ maxLength: 300 }),
        async (id, ts, body) => {
          const secret = newWebhookSecret();
          const signature = await signWebhook(secret, id, ts, body);
          expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
          const headers = { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature };
          expect(await verifyStandardWebhook(secret, headers, body, ts)).toEqual({ ok: true });
          expect((await verifyStandardWebhook(secret, headers, `${body} `, ts)).ok).toBe(false);
          expect((await verifyStandardWebhook(secret, { ...headers, 'webhook-id': `${id}x` }, body, ts)).ok).toBe(
            false,
          );
          expect((await verifyStandardWebhook(newWebhookSecret(), headers, body, ts)).ok).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('matches the example of the Standard Webhooks specification, and so does the verifier', async () => {
    // The Standard Webhooks reference example: this secret, id, timestamp and body.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(await signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v2,abc v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    expect(await verifyStandardWebhook(secret, headers, body, 1614265330)).toEqual({ ok: true });
    expect((await verifyStandardWebhook(secret, headers, body, 1614265330 + 301)).ok).toBe(false);
  });

  it('seals a secret so that only the same service secret and endpoint open it', async () => {
    const sealer = secretSealer(SERVICE_SECRET);
    const secret = newWebhookSecret();
    const sealed = await sealer.seal(secret, ID);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealed).toMatch(/^v1\./);
    expect(await sealer.seal(secret, ID)).not.toBe(sealed);
    expect(await sealer.open(sealed, ID)).toBe(secret);
    await expect(sealer.open(sealed, '0190a000-0000-7000-8000-000000000002')).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(secretSealer(`${SERVICE_SECRET}!`).open(sealed, ID)).rejects.toMatchObject({ code: 'conflict' });
    await expect(sealer.open('v1.bad.data', ID)).rejects.toMatchObject({ code: 'conflict' });
    await expect(secretSealer('short').seal(secret, ID)).rejects.toThrow();
  });
});
