/** Tiny but valid images of each allowed type, and hostile look-alikes. */
const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

export const PNG_1x1 = b64(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
);
export const GIF_1x1 = b64('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==');
export const WEBP_1x1 = b64('UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=');
// A 2×3 baseline JPEG (made with sharp).
export const JPEG_2x3 = b64(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAADAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCAAArX/9k=',
);

export const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
export const HTML = new TextEncoder().encode('<!doctype html><script>alert(1)</script>');
export const ZIP = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]);

/** A PNG header that claims 64000×64000 pixels: a pixel flood refused before decoding. */
export function pngBomb(): Uint8Array {
  const bytes = PNG_1x1.slice();
  const view = new DataView(bytes.buffer);
  view.setUint32(16, 64000);
  view.setUint32(20, 64000);
  return bytes;
}

/** A valid image with a script appended: must still be served as image/png, with nosniff. */
export function pngWithScript(): Uint8Array {
  const tail = new TextEncoder().encode('<script>alert(1)</script>');
  const out = new Uint8Array(PNG_1x1.length + tail.length);
  out.set(PNG_1x1);
  out.set(tail, PNG_1x1.length);
  return out;
}
