import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCost } from '../../worker/src/core/media/decode-cost.js';
import { readImageHeader } from '../../worker/src/core/media/image-header.js';
import { blankPng, pngDepthBomb } from '../support/decode-bombs.js';
import { JPEG_400x300 } from '../support/images.js';

const costOf = (bytes: Uint8Array) => decodeCost(bytes, readImageHeader(bytes)!);

describe('decodeCost (from the header alone)', () => {
  it('counts 4 bytes a pixel for 8-bit images, the stored depth above it, and Adam7 twice', async () => {
    expect(costOf(JPEG_400x300)).toBe(400 * 300 * 4);
    expect(costOf(await blankPng({ width: 100, height: 50 }))).toBe(100 * 50 * 4);
    expect(costOf(await blankPng({ width: 100, height: 50, bitDepth: 16, colourType: 2 }))).toBe(100 * 50 * 6);
    expect(costOf(await blankPng({ width: 100, height: 50, bitDepth: 16, colourType: 6, interlaced: true }))).toBe(
      100 * 50 * 8 * 2,
    );
    expect(costOf(await pngDepthBomb())).toBe(4000 * 4000 * 16);
  });

  it('never throws, and never counts less than 4 bytes a pixel, whatever follows the PNG signature', () => {
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), fc.integer({ min: 1, max: 70_000 }), (tail, side) => {
        const bytes = Uint8Array.from([...signature, ...tail]);
        const header = { contentType: 'image/png' as const, width: side, height: side };
        const cost = decodeCost(bytes, header);
        expect(Number.isFinite(cost)).toBe(true);
        expect(cost).toBeGreaterThanOrEqual(side * side * 4);
        expect(cost).toBeLessThanOrEqual(side * side * 16);
      }),
    );
  });
});
