/**
 * A verifier written from the Standard Webhooks specification
 * (https://www.standardwebhooks.com, "Verifying webhook authenticity"),
 * apart from the service's signer: what a receiver would run. Web Crypto
 * only, so it runs in workerd as well as Node.
 *
 * - The secret is `whsec_` followed by base64; the HMAC key is the decoded bytes.
 * - The signed content is `${webhook-id}.${webhook-timestamp}.${body}`.
 * - `webhook-signature` is a space-separated list of `v1,<base64 HMAC-SHA256>`;
 *   any one matching is enough; other versions are ignored.
 * - The timestamp (Unix seconds) must be within the tolerance of the receiver's clock.
 */

export type Verdict = { ok: true } | { ok: false; reason: string };

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function encodeBase64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export async function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string>,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 5 * 60,
): Promise<Verdict> {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing webhook-id, -timestamp or -signature' };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: 'timestamp is not Unix seconds' };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds)
    return { ok: false, reason: 'timestamp too far off' };
  if (!secret.startsWith('whsec_')) return { ok: false, reason: 'secret lacks the whsec_ prefix' };
  const key = await crypto.subtle.importKey(
    'raw',
    decodeBase64(secret.slice('whsec_'.length)) as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const content = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, content));
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    let given: Uint8Array;
    try {
      given = decodeBase64(entry.slice(comma + 1));
    } catch {
      continue;
    }
    if (sameBytes(given, expected)) return { ok: true };
  }
  return { ok: false, reason: `no v1 signature matches (expected ${encodeBase64(expected)})` };
}
