import { describe, expect, it } from 'vitest';
import { readImageHeader } from '../../worker/src/core/media/image-header.js';
import { GIF_1x1, HTML, JPEG_2x3, PNG_1x1, pngBomb, SVG, WEBP_1x1, ZIP } from '../support/images.js';

describe('readImageHeader', () => {
  it.each([
    ['JPEG', JPEG_2x3, 'image/jpeg', 'jpg', 2, 3],
    ['PNG', PNG_1x1, 'image/png', 'png', 1, 1],
    ['GIF', GIF_1x1, 'image/gif', 'gif', 1, 1],
    ['WebP', WEBP_1x1, 'image/webp', 'webp', 1, 1],
  ])('reads type and size of a %s from its bytes', (_, bytes, contentType, extension, width, height) => {
    expect(readImageHeader(bytes)).toEqual({ contentType, extension, width, height });
  });

  it.each([
    ['SVG', SVG],
    ['HTML', HTML],
    ['ZIP', ZIP],
    ['empty', new Uint8Array()],
    ['a PNG cut inside its header', PNG_1x1.slice(0, 20)],
    ['a JPEG cut before its frame header', JPEG_2x3.slice(0, 30)],
  ])('refuses %s', (_, bytes) => {
    expect(readImageHeader(bytes)).toBeNull();
  });

  it('reports a pixel flood so it can be refused before decoding', () => {
    expect(readImageHeader(pngBomb())).toMatchObject({ width: 64000, height: 64000 });
  });
});
