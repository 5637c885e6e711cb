import { describe, expect, it } from 'vitest';
import { tileSources } from '../../admin-qwik/src/lib/variants.js';

const URL = '/static/uploadedImages/a.jpg';

describe('admin media tiles from the server’s variants', () => {
  it('offers the preset widths a tile can use, smallest first, as WebP', () => {
    expect(tileSources({ url: URL, width: 4032 }, [1920, 160, 320, 640, 960])).toEqual({
      src: `${URL}?w=160&format=webp`,
      srcset: `${URL}?w=160&format=webp 160w, ${URL}?w=320&format=webp 320w, ${URL}?w=640&format=webp 640w`,
    });
  });

  it('never asks for more than the original, but always for one variant', () => {
    expect(tileSources({ url: URL, width: 300 }, [160, 320])?.srcset).toBe(`${URL}?w=160&format=webp 160w`);
    expect(tileSources({ url: URL, width: 100 }, [160, 320])?.srcset).toBe(`${URL}?w=160&format=webp 160w`);
    expect(tileSources({ url: URL, width: 100 }, [])).toBeNull();
  });
});
