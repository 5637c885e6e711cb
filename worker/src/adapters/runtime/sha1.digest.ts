import { createHash } from 'node:crypto';
import type { ContentDigest } from '../../ports/runtime.js';

/**
 * SHA-1 of the UTF-8 bytes, base64url. Not a security check: it names the
 * bytes of one answer so that a client's copy can be recognised (an ETag).
 * node:crypto rather than crypto.subtle: synchronous (on Node subtle's digest
 * goes through the thread pool, about 70 µs per small answer against 3 µs),
 * and workerd has it under nodejs_compat.
 */
export const sha1Digest: ContentDigest = (text) => createHash('sha1').update(text).digest('base64url');
