import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { describeSize, fitWithin, SHRINK_MAX_SIDE, shrinkPlan } from '../../admin-qwik/src/lib/image-fit.js';
import { GIF_1x1, JPEG_2x3, pngBomb } from '../support/images.js';

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#888' } });

describe('admin pre-upload shrink: the plan from header bytes', () => {
  it('fits the longer side to 2560 px, keeping the aspect', () => {
    expect(SHRINK_MAX_SIDE).toBe(2560);
    expect(fitWithin({ width: 3000, height: 2000 })).toEqual({ width: 2560, height: 1707 });
    expect(fitWithin({ width: 2000, height: 3000 })).toEqual({ width: 1707, height: 2560 });
    expect(fitWithin({ width: 100_000, height: 1 })).toEqual({ width: 2560, height: 1 });
    expect(fitWithin({ width: 2560, height: 2560 })).toEqual({ width: 2560, height: 2560 });
    expect(fitWithin({ width: 800, height: 600 }, 400)).toEqual({ width: 400, height: 300 });
  });

  it('plans JPEG, PNG and WebP larger than the limit, from a JPEG header alone', async () => {
    const jpeg = await solid(3000, 2000).jpeg().toBuffer();
    // The frame header is near the start: a slice is enough, as the editor reads it.
    expect(shrinkPlan(jpeg.subarray(0, 1024))).toEqual({
      contentType: 'image/jpeg',
      from: { width: 3000, height: 2000 },
      to: { width: 2560, height: 1707 },
    });
    expect(shrinkPlan(await solid(2561, 10).png().toBuffer())).toMatchObject({
      contentType: 'image/png',
      to: { width: 2560, height: 10 },
    });
    expect(shrinkPlan(await solid(100, 3000).webp().toBuffer())).toMatchObject({
      contentType: 'image/webp',
      to: { width: 85, height: 2560 },
    });
    expect(shrinkPlan(pngBomb())).toMatchObject({
      from: { width: 64000, height: 64000 },
      to: { width: 2560, height: 2560 },
    });
  });

  it('leaves small images, GIFs and non-images alone', async () => {
    expect(shrinkPlan(JPEG_2x3)).toBeNull();
    expect(shrinkPlan(await solid(2560, 1440).jpeg().toBuffer())).toBeNull();
    expect(shrinkPlan(await solid(3000, 10).gif().toBuffer())).toBeNull();
    expect(shrinkPlan(GIF_1x1)).toBeNull();
    expect(shrinkPlan(new TextEncoder().encode('<svg width="9000"/>'))).toBeNull();
    expect(shrinkPlan(new Uint8Array())).toBeNull();
  });

  it('describes a size for the upload list', () => {
    expect(describeSize({ width: 3000, height: 2000 }, 2_202_009)).toBe('3000×2000, 2.1 MiB');
  });
});
