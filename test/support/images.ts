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

// Made with sharp at dev time (see the media contract): a 400×300 gradient
// (quality 50), and 32×16 quadrants — red top left, green top right, blue
// bottom left, white bottom right — as JPEG (4:4:4, quality 95) and PNG.
export const JPEG_400x300 = b64(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhC' +
  'Y2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAEsAZADASIAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAA' +
  'AQACBv/EABUQAQEAAAAAAAAAAAAAAAAAAAAR/8QAGQEBAQEBAQEAAAAAAAAAAAAAAgEABQYD/8QAFhEBAQEAAAAAAAAAAAAAAAAAAAER/9oADAMBAAIRAxEA' +
  'PwDiIo1FHd18pRDDDE0pRFGoomnKIYYYmlKIo1FG05RDDDE0pRFGoomlKIYYYmnKIo1FE0pRDDDE05RDDDG0pWYYYYmlKIYYYmnKzDDDE0pRDDDE05WYYYY2' +
  'lKIYYYmlKzDDDE05RDDDE0pWYYYYmnKIYYY2lKIo1FE0pRDDDE05RFGoomlKIYYYmnK5yKGGOlrwUohhhiacoijUUTSlEMMMTSlEUaiiacohhhjaUoijUUTT' +
  'lEMMMTSlEUaiiacohhhiaUohhhjaUrMMMMTTlEMMMTSlZhhhiaUohhhiacrMMMMTSlEMMMbTlZhhhiaUohhhiacrMMMMTSlEMMMTSlEUaijacohhhiaUoijU' +
  'UTSlEMMMTTlc3DDDHS14OUQwwxNKURRqKJpSiGGGJpyiKNRRNKUQwwxNOURRqKNpSiGGGJpSiKNRRNOUQwwxNKURRqKJpyiGGGNpSiGGGJpSswwwxNOUQwwx' +
  'NKVmGGGJpyiGGGNpSswwwxNKUQwwxNOVmGGGJpSiGGGJpyswwwxNKUQwwxtKURRqKJpyiGGGJpSubhhhjo68HKIYYY2lKIo1FE05RDDDE0pRFGoomlKIYYYm' +
  'nKIo1FE0pRDDDG05RFGoomlKIYYYmnKIYYYmlKzDDDE0pRDDDG05WYYYYmlKIYYYmlKzDDDE05RDDDE0pWYYYY2nKIYYYmlKzDDDE05RDDDE0pRFGoomlKIY' +
  'YY2nKIo1FE0pRDDDE0pXNwwwx0deDlEMMMTTlEUMMbSlEMMMTSlEUaiiacohhhiaUoijUUTTlEMMMbSlEUaiiaUohhhiacoijUUTSlEMMMTTlEMMMbSlZhhh' +
  'iaUohhhiacrMMMMTSlEMMMTTlZhhhjaUohhhiaUrMMMMTTlEMMMTSlZhhhiacohhhiaUoijUUbSlEMMMTTlc3DDDHR14OUQwwxNKURRqKNpSiGGGJpyiKNRR' +
  'NKUQwwxNOURRqKJpSiGGGJpSiKNRRtOUQwwxNKURRqKJpyiGGGJpSiGGGJpSswwwxtOUQwwxNKVmGGGJpyiGGGJpSswwwxNKUQwwxtOVmGGGJpSiGGGJpysw' +
  'wwxNKUQwwxNKURRqKJpyiGGGNpSubhhhjo68HKIYYYmlKIoYYmnKIYYY2lKIo1FE0pRDDDE05RFGoomlKIYYYmnKIo1FG0pRDDDE0pRFGoomnKIYYYmlKIYY' +
  'omnKIYYYmlKIYYY2lKzDDDE05RDDDE0pWYYYYmnKIYYYmlKzDDDG0pRDDDE05WYYYYmlKIYYYmnKIo1FE0pRDDDG0pXNwwwx0deDlEMMMTTlZhjUUTSlEMMM' +
  'TSlEUaijacohhhiaUoijUUTTlEMMMTSlEUaiiaUohhhjacoijUUTSlEMMMTTlEUahiaUrMMMMTSlEMMMbTlZhhhiaUohhhiacrMMMMTSlEMMMTSlZhhhiaco' +
  'hhhjaUrMMMMTTlEMMMTSlEUaiiaUohhhjacrm4YYY6OvByiGGGJpSiKGGJpSiGGGJpyiKNRRtKUQwwxNOURRqKJpSiGGGJpSiKNRRNOUQwwxtKURRqKJpyiG' +
  'GGJpSiGGKJpSiGGGJpyiGGGJpSswwwxtOUQwwxNKVmGGGJpSiGGGJpyswwwxNKUQwwxtOVmGGGJpSiGGGJpSiKNRRNOUQwwxNKVzcMMMdLXg5RDDDE0pWYYY' +
  'YmnKIYYYmlKIo1FE0pRDDDG05RFGoomlKIYYYmnKIo1FE0pRDDDE0pRFGoo2nKIYYYmlKIo1FE05RDDDE0pRDDDE0pWYYYY2nKIYYYmlKzDDDE05RDDDE0pW' +
  'YYYYmlKIYYYmnKzDDDG0pRDDDE05RFGoomlKIYYYmlK5uGGGOlrwcohhhiacrMMMMTSlEMMMTSlEUaiiacohhhiaUoijUUbTlEMMMTSlEUaiiaUohhhiacoi' +
  'jUUTSlEMMMbTlEUahiaUrMMMMTSlEMMMTTlZhhhiaUohhhjacrMMMMTSlEMMMTSlZhhhiacohhhiaUrMMMMbTlEMMMTSlEUaiiaUohhhiacrm4YYY6OvBSiG' +
  'GGNpyswwwxNKUQwwxNOVmGNRRNKUQwwxNKURRqKNpyiGGGJpSiKNRRNOUQwwxNKURRqKJpSiGGGJpyiGGKNpSiGGGJpyiGGGJpSswwwxNKUQwwxNOVmGGGNp' +
  'SiGGGJpyswwwxNKUQwwxNOVmGGGJpSiGGGNpSiKGGJpyiGGGJpSubhhhjo68HKIYYYmlKzDDDG05RDDDE0pWYY1FE0pRDDDE05RFGoomlKIYYY2nKIo1FE0p' +
  'RDDDE0pRFGoomnKIYYYmlKIo1FG05RDDDE0pRFGoYmlKzDDDE05RDDDE0pWYYYYmnKIYYY2lKzDDDE0pRDDDE05WYYYYmlKIYYY2nKzDDDE0pRDDDE0pXNww' +
  'wx0deDlEMMMTTlZhhhjaUohhhiaUoihhiacohhhiaUoijUUTSlEMMMbTlEUaiiaUohhhiacoijUUTSlEMMMTTlEMMUTSlEMMMbSlEMMMTTlZhhhiaUohhhia' +
  'UrMMMMTTlEMMMbSlZhhhiacohhhiaUrMMMMTTlEMMMTSlEUMMbSlEMMMTTlc3DDDHR14KUQwwxNOVmGGGJpSiGGGNpyiKGGJpSiGGGJpSiKNRRNOUQwwxNKU' +
  'RRqKNpyiGGGJpSiKNRRNKUQwwxNOURRqKJpSiGGGJpyiKNRRtKUQwwxNKUQwwxNOVmGGGJpSiGGGNpyswwwxNKUQwwxNKVmGGGJpyiGGGJpSswwwxNOUQwwx' +
  'tKVzcMMMdHXg5RDDDE0pWYYYYmnKIYYY2lKzDDDE0pRDDDE05RFGoomlKIYYYmnKIo1FE0pRDDDG0pRFGoomnKIYYYmlKIo1FE05RDDDE0pRDDDG0pWYYYYm' +
  'nKIYYYmlKzDDDE05RDDDE0pWYYYY2lKIYYYmnKzDDDE0pRDDDE05WYYYYmlKIYYY2lK5uGGGOjrwcohhhiaUrMMMMTTlEMMMTSlZhhhjacohhhiaUoijUUTS' +
  'lEMMMTTlEUaiiaUohhhjacoijUUTSlEMMMTSlEUaiiacohhhiaUoijUUTTlEMMMbSlEMMMTSlZhhhiacohhhiaUrMMMMTTlEMMMbSlZhhhiaUohhhiacrMMM' +
  'MTSlEMMMTTlc3DDDHS14KUQwwxNOVmGGGJpSiGGGJpyswwwxNKUQwwxtKVmGGGJpyiGGGJpSiKNRRNOUQwwxNKURRqKNpSiGGGJpyiKNRRNKUQwwxNOURRqK' +
  'JpSiGGGNpSiGGGJpyswwwxNKUQwwxNOVmGGGJpSiGGGJpSswwwxtOUQwwxNKVmGGGJpyiGGGJpSubhhLpPByiGFIUohhKHKIYUhSiGEocohhTFKooShSiGFI' +
  'cqihKFKIYShSiKEscohhKFKIoShyiGEoUoihKHKIYSxSiGIoUohhKHKIYihSiGEoUohhSHKIYSxSiGFIcohhKFKIYUhyv//Z',
);
export const JPEG_QUADRANTS = b64(
  '/9j/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYH' +
  'CgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAQACADAREAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAA' +
  'AAkICv/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAYAQEAAwEAAAAAAAAAAAAAAAAACAkKB//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AMXo' +
  'pr/AFKEW2FcBBttMWsAO4hQG6oA//9k=',
);
export const PNG_QUADRANTS = b64(
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAQCAIAAAD4YuoOAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAALElEQVQ4jWP4z8BAEmIgVcOoBf9Hg4hh0KciBhJ1kApG' +
  'LSAIRoOIIKB5EAEA+dz9H2xozKcAAAAASUVORK5CYII=',
);

/**
 * The JPEG with an EXIF APP1 segment (big-endian TIFF, IFD0 holding only
 * Orientation) inserted after its start-of-image marker.
 */
export function withExifOrientation(jpeg: Uint8Array, orientation: number, littleEndian = false): Uint8Array {
  const tiff = new Uint8Array(26);
  const v = new DataView(tiff.buffer);
  const le = littleEndian;
  tiff.set(le ? [0x49, 0x49] : [0x4d, 0x4d]);
  v.setUint16(2, 42, le);
  v.setUint32(4, 8, le); // IFD0 right after the header
  v.setUint16(8, 1, le); // one entry
  v.setUint16(10, 0x0112, le);
  v.setUint16(12, 3, le); // SHORT
  v.setUint32(14, 1, le); // one value
  v.setUint16(18, orientation, le);
  v.setUint32(22, 0, le); // no next IFD
  const exif = new Uint8Array([0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]);
  const segment = new Uint8Array(4 + exif.length);
  segment.set([0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff]);
  segment.set(exif, 4);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

/** GIF_1x1 with its frame (control extension and image) repeated `frames` times. */
export function gifWithFrames(frames: number): Uint8Array {
  const head = GIF_1x1.subarray(0, 19); // header, screen descriptor, colour table
  const frame = GIF_1x1.subarray(19, GIF_1x1.length - 1); // up to the trailer
  const out = new Uint8Array(head.length + frame.length * frames + 1);
  out.set(head);
  for (let i = 0; i < frames; i++) out.set(frame, head.length + i * frame.length);
  out[out.length - 1] = 0x3b;
  return out;
}
