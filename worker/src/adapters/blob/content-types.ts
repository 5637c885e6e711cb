/**
 * The local-dir store keeps files byte-for-byte as uploaded (so a directory
 * can be backed up, served or synced to S3 with ordinary tools) and derives
 * each object's content type from its key's extension. Keys are server-made
 * (`originals/{uuid}.jpg`), so the extension always says what the bytes are.
 */
const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  wasm: 'application/wasm',
  bin: 'application/octet-stream',
};

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export function contentTypeForKey(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? DEFAULT_CONTENT_TYPE;
}

/** `image/png; x=y` → `image/png`: parameters such as charset do not change what the bytes are. */
export function mediaTypeEssence(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}
