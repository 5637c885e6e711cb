import { describe, expect, it } from 'vitest';
import { gifFrameCount, isStructurallyComplete, MAX_GIF_FRAMES } from '../../worker/src/core/media/image-integrity.js';
import {
  GIF_1x1,
  gifWithFrames,
  JPEG_400x300,
  JPEG_QUADRANTS,
  PNG_1x1,
  PNG_QUADRANTS,
  pngWithScript,
  WEBP_1x1,
} from '../support/images.js';

const CASES = [
  ['JPEG', JPEG_400x300, 'image/jpeg'],
  ['JPEG (4:4:4)', JPEG_QUADRANTS, 'image/jpeg'],
  ['PNG', PNG_1x1, 'image/png'],
  ['PNG (quadrants)', PNG_QUADRANTS, 'image/png'],
  ['GIF', GIF_1x1, 'image/gif'],
  ['animated GIF', gifWithFrames(5), 'image/gif'],
  ['WebP', WEBP_1x1, 'image/webp'],
] as const;

describe('isStructurallyComplete', () => {
  it.each(CASES)('accepts a whole %s and refuses every cut of it', (_, bytes, type) => {
    expect(isStructurallyComplete(bytes, type)).toBe(true);
    for (let cut = 0; cut < bytes.length; cut++) {
      if (isStructurallyComplete(bytes.subarray(0, cut), type))
        throw new Error(`a ${type} cut at ${cut} of ${bytes.length} passed`);
    }
  });

  it('accepts a whole image with a tail appended (polyglots are served as images, never decoded as anything else)', () => {
    expect(isStructurallyComplete(pngWithScript(), 'image/png')).toBe(true);
  });

  it('refuses a frame flood and garbage after the screen descriptor', () => {
    expect(gifFrameCount(gifWithFrames(3))).toBe(3);
    expect(isStructurallyComplete(gifWithFrames(MAX_GIF_FRAMES), 'image/gif')).toBe(true);
    expect(isStructurallyComplete(gifWithFrames(MAX_GIF_FRAMES + 1), 'image/gif')).toBe(false);
    const garbage = GIF_1x1.slice();
    garbage[19] = 0x99;
    expect(gifFrameCount(garbage)).toBeNull();
  });
});
