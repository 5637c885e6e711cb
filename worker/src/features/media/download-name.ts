import { DomainError } from '../../core/domain/errors.js';
import type { Image } from './images.port.js';

/**
 * `?download=1` on an original: served as an attachment under the name it
 * was uploaded with (RFC 6266), `filename*` in UTF-8 (RFC 8187) for any
 * name, `filename` an ASCII stand-in for clients that read only that.
 */

/** Takes `download` out of the query: true for `download=1`, false when absent; anything else is a 400. */
export function takeDownloadFlag(query: Record<string, string[]>): boolean {
  const values = query.download;
  if (values === undefined) return false;
  delete query.download;
  if (values.length !== 1 || values[0] !== '1') {
    throw new DomainError('invalid_request', 'download must be 1, given once', [
      { path: 'download', message: 'must be 1' },
    ]);
  }
  return true;
}

// RFC 8187 attr-char: ALPHA / DIGIT / "!#$&+-.^_`|~"; everything else is percent-encoded.
const encodeExtValue = (name: string) =>
  Array.from(new TextEncoder().encode(name), (b) => {
    const ch = String.fromCharCode(b);
    return /[A-Za-z0-9!#$&+\-.^_`|~]/.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');

/** The header for downloading an image: its original name, or its stored filename when none is known. */
export function attachmentDisposition(image: Pick<Image, 'filename' | 'originalName'>): string {
  const name = image.originalName ?? image.filename;
  // A quoted-string without quotes, backslashes or non-ASCII: those become "_".
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(name)}`;
}
