/**
 * The name a file was uploaded under, made safe to store, show and offer as a
 * download name: the last path part only (a browser may send
 * `C:\fakepath\photo.jpg`), NFC, no control or bidirectional-override
 * characters (they disguise an extension), no lone surrogates, no leading dots
 * or surrounding spaces, at most MAX_FILE_NAME_LENGTH characters with the
 * extension kept. Null when nothing is left.
 */
export const MAX_FILE_NAME_LENGTH = 200;

// C0/C1 controls, DEL, and the bidi embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LONE_HALF = /[\uD800-\uDFFF]/gu;
// Room kept for the extension when a long name is shortened.
const MAX_EXTENSION = 16;

export function sanitizeFileName(raw: string): string | null {
  const base = raw.split(/[/\\]/).pop() ?? '';
  let name = base.normalize('NFC').replace(UNSAFE, '').replace(LONE_HALF, '').replace(/\s+/g, ' ');
  name = name.trim().replace(/^\.+/, '').trim();
  if (name === '') return null;
  const chars = Array.from(name);
  if (chars.length <= MAX_FILE_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(name.slice(dot)) : [];
  const keep = ext.length > 1 && ext.length <= MAX_EXTENSION ? ext : [];
  return (
    chars
      .slice(0, MAX_FILE_NAME_LENGTH - keep.length)
      .join('')
      .trimEnd() + keep.join('')
  ).trim();
}
