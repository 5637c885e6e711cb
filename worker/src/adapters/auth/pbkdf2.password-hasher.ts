import type { PasswordHasher } from '../../ports/runtime.js';

/**
 * PBKDF2-SHA256 through Web Crypto, identical on Workers and Node. 100,000
 * iterations is the most Workers' Web Crypto accepts; the count is stored
 * in the hash so it can be raised later without breaking old hashes.
 */
export const PBKDF2_ITERATIONS = 100_000;
const encoder = new TextEncoder();

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (s: string) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function createPbkdf2PasswordHasher(iterations = PBKDF2_ITERATIONS): PasswordHasher {
  return {
    async hash(password) {
      const salt = crypto.getRandomValues(new Uint8Array(16));
      return `pbkdf2-sha256$${iterations}$${b64(salt)}$${b64(await derive(password, salt, iterations))}`;
    },
    async verify(password, stored) {
      const [scheme, iter, salt, hash] = stored.split('$');
      const count = Number(iter);
      if (scheme !== 'pbkdf2-sha256' || !salt || !hash || !Number.isInteger(count) || count < 1 || count > 10_000_000) {
        return false;
      }
      return equal(await derive(password, unb64(salt), count), unb64(hash));
    },
  };
}
