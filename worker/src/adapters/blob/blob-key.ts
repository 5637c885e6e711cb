import { DomainError } from '../../core/domain/errors.js';

/**
 * The one key rule every BlobStore adapter enforces, so that a key means the
 * same object in R2, in S3 and on a local disk:
 * - only `[A-Za-z0-9._/-]` (no encoding tricks, no backslash, no NUL);
 * - no leading `/`, no empty segment (`a//b`, trailing `/`);
 * - no `.` or `..` segment: `..` escapes a directory, and URL parsers silently
 *   collapse both, which would make an S3 request address another object;
 * - bounded: S3 and R2 allow 1024 bytes, file systems 255 per name, and the
 *   local-dir adapter needs room for its temp-file suffix.
 */
export const MAX_BLOB_KEY_LENGTH = 512;
export const MAX_BLOB_SEGMENT_LENGTH = 200;
export const MAX_LIST_LIMIT = 1000;

const KEY_CHARS = /^[A-Za-z0-9._/-]+$/;

/** Why `key` is not a valid blob key, or null when it is. */
export function blobKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'must be a non-empty string';
  if (key.length > MAX_BLOB_KEY_LENGTH) return `must be at most ${MAX_BLOB_KEY_LENGTH} characters`;
  if (!KEY_CHARS.test(key)) return 'may contain only letters, digits, ".", "_", "-" and "/"';
  if (key.startsWith('/')) return 'must not start with "/"';
  for (const segment of key.split('/')) {
    if (segment === '') return 'must not contain an empty segment';
    if (segment === '.' || segment === '..') return 'must not contain a "." or ".." segment';
    if (segment.length > MAX_BLOB_SEGMENT_LENGTH) {
      return `segments must be at most ${MAX_BLOB_SEGMENT_LENGTH} characters`;
    }
  }
  return null;
}

export function isValidBlobKey(key: unknown): key is string {
  return blobKeyProblem(key) === null;
}

export function assertValidBlobKey(key: unknown): asserts key is string {
  const problem = blobKeyProblem(key);
  // The key itself is not echoed: it may hold control characters headed for a log.
  if (problem) throw invalid('key', `Invalid blob key: it ${problem}`);
}

/**
 * A list prefix is a key's beginning: the empty string, whole segments
 * followed by `/`, or a partial last segment. Its whole segments obey the key
 * rule, so a prefix can never point outside the store.
 */
export function assertValidBlobPrefix(prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string') throw invalid('prefix', 'Invalid blob prefix: must be a string');
  if (prefix === '') return;
  const slash = prefix.lastIndexOf('/');
  const dir = prefix.slice(0, slash); // '' when there is no slash
  const rest = prefix.slice(slash + 1);
  const dirProblem = slash === -1 ? null : blobKeyProblem(dir);
  // `rest` never holds a "/" here; it is only a string filter, so "." is harmless.
  const restOk = rest === '' || KEY_CHARS.test(rest);
  if (dirProblem || !restOk || prefix.length > MAX_BLOB_KEY_LENGTH) {
    throw invalid('prefix', 'Invalid blob prefix: it must be the beginning of a valid key');
  }
}

/** `limit` for list(): 1..1000, default 1000. */
export function normaliseListLimit(limit: number | undefined): number {
  if (limit === undefined) return MAX_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw invalid('limit', 'Invalid list limit: must be a positive integer');
  return Math.min(limit, MAX_LIST_LIMIT);
}

function invalid(path: string, message: string): DomainError {
  return new DomainError('invalid_request', message, [{ path, message }]);
}
