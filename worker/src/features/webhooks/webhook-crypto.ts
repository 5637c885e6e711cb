import { DomainError } from '../../core/domain/errors.js';
import { base64, fromBase64 } from '../../core/shared/crypto.js';
import { WEBHOOK_SECRET_PREFIX } from './webhook.schema.js';

/**
 * The Standard Webhooks signature, and the signing secrets at rest. Web
 * Crypto only: the same on Workers and Node.
 *
 * A secret is `whsec_` + base64 of 32 random bytes; those bytes are the HMAC
 * key. The service must keep the key to sign with, so it cannot store a hash
 * of it as it does for API keys: it stores it sealed with AES-256-GCM under
 * a key derived from JWT_SECRET (HKDF-SHA-256, its own label), bound to the
 * endpoint's id. A copy of the database alone (a backup, a dump, a read-only
 * SQL injection) then yields no secret; whoever also holds JWT_SECRET can
 * forge sessions anyway. Changing JWT_SECRET makes the sealed secrets
 * unreadable: those endpoints' deliveries fail until they are created again.
 */

const encoder = new TextEncoder();
const SECRET_BYTES = 32;
const SEALED_VERSION = 'v1';

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + base64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The HMAC key: the base64-decoded part after `whsec_`. */
function keyBytes(secret: string): Uint8Array {
  const bytes = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length))
    : null;
  if (!bytes || bytes.length < 24) throw new Error('not a webhook signing secret');
  return bytes;
}

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`: the value of the
 * `webhook-signature` header for this message id, Unix timestamp (seconds) and body.
 */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    keyBytes(secret) as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${base64(new Uint8Array(mac))}`;
}

/** Seals and opens signing secrets with a key derived from the service's own secret. */
export function secretSealer(serviceSecret: string) {
  let sealing: Promise<CryptoKey> | undefined;
  const key = () => {
    if (serviceSecret.length < 32) return Promise.reject(new Error('no service secret to seal webhook secrets with'));
    sealing ??= crypto.subtle
      .importKey('raw', encoder.encode(serviceSecret), 'HKDF', false, ['deriveKey'])
      .then((base) =>
        crypto.subtle.deriveKey(
          {
            name: 'HKDF',
            hash: 'SHA-256',
            salt: encoder.encode('edge-cms webhook signing secrets'),
            info: encoder.encode(SEALED_VERSION),
          },
          base,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    return sealing;
  };

  return {
    /** `v1.<iv>.<ciphertext>`, both base64; `webhookId` is authenticated with it, so a sealed secret opens only on its own row. */
    async seal(secret: string, webhookId: string): Promise<string> {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: encoder.encode(webhookId) },
        await key(),
        encoder.encode(secret),
      );
      return `${SEALED_VERSION}.${base64(iv)}.${base64(new Uint8Array(sealed))}`;
    },

    async open(sealed: string, webhookId: string): Promise<string> {
      const [version, iv, data] = sealed.split('.');
      const ivBytes = iv === undefined ? null : fromBase64(iv);
      const dataBytes = data === undefined ? null : fromBase64(data);
      if (version !== SEALED_VERSION || !ivBytes || !dataBytes) throw unreadable();
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: ivBytes as Uint8Array<ArrayBuffer>, additionalData: encoder.encode(webhookId) },
          await key(),
          dataBytes as Uint8Array<ArrayBuffer>,
        );
        return new TextDecoder().decode(plain);
      } catch {
        throw unreadable();
      }
    },
  };
}

const unreadable = () =>
  new DomainError('conflict', 'The signing secret cannot be read (JWT_SECRET changed?); create the webhook again');

export type SecretSealer = ReturnType<typeof secretSealer>;
