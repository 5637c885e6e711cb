import { describe, expect, it } from 'vitest';
import { srcsetOf, toImageDto, toPicture } from '../../worker/src/features/media/image-dto.js';
import { requestLinks, serverLinks } from '../../worker/src/wire/links.js';

const WIDTHS = [160, 320, 640, 960];
const image = {
  id: '0190a000-0000-7000-8000-000000000001',
  articleId: '0190a000-0000-7000-8000-000000000002',
  filename: '0190a000-0000-7000-8000-000000000001.jpg',
  contentType: 'image/jpeg' as const,
  bytes: 10,
  width: 640,
  height: 480,
  sha256: 'a'.repeat(64),
  createdAt: new Date('2026-11-26T10:00:00.000Z'),
  originalName: 'photo.jpg',
  alt: 'A photo',
  caption: '',
};

describe('links in answers', () => {
  it('use PUBLIC_URL when it is set, without its trailing slash, whatever the request', () => {
    const links = requestLinks({
      publicUrl: 'https://cms.example/',
      publicUrlConfigured: true,
      imageVariantWidths: WIDTHS,
    });
    expect(links('http://10.0.0.5:8787/v1/articles').origin).toBe('https://cms.example');
  });

  it('use the request’s origin when PUBLIC_URL is unset; the scheduler uses the default', () => {
    const settings = { publicUrl: 'http://localhost:8787', publicUrlConfigured: false, imageVariantWidths: WIDTHS };
    expect(requestLinks(settings)('http://192.168.1.5:8787/v1/articles?x=1').origin).toBe('http://192.168.1.5:8787');
    expect(serverLinks(settings).origin).toBe('http://localhost:8787');
  });

  it('give images an absolute url and srcset candidates never wider than the original', () => {
    const base = { origin: 'https://cms.example', widths: WIDTHS };
    const url = `https://cms.example/static/uploadedImages/${image.filename}`;
    expect(toImageDto(image, base)).toMatchObject({
      url,
      srcset: `${url}?w=160 160w, ${url}?w=320 320w, ${url}?w=640 640w`,
    });
    expect(toPicture({ ...image, width: 100 }, base)).toEqual({
      url,
      alt: 'A photo',
      width: 100,
      height: 480,
      srcset: '',
    });
    expect(srcsetOf(url, { width: 319, height: 100 }, base)).toBe(`${url}?w=160 160w`);
  });

  it('offers no srcset for an original over the variant cap, whose every variant is refused', () => {
    const base = { origin: 'https://cms.example', widths: WIDTHS };
    const url = `https://cms.example/static/uploadedImages/${image.filename}`;
    expect(srcsetOf(url, { width: 4000, height: 4000 }, base)).toContain('640w'); // 16 MP: the cap itself
    expect(srcsetOf(url, { width: 4001, height: 4000 }, base)).toBe('');
    expect(toPicture({ ...image, width: 8000, height: 6000 }, base).srcset).toBe('');
  });
});
