import { env } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_DECODE_BUDGET } from '../../worker/src/core/domain/image-limits.js';
import { retryMarkerKey } from '../../worker/src/features/media/variants.service.js';
import type { RenderJob } from '../../worker/src/ports/image-codec.js';
import { createArticle, errorOf, registerOwner, upload } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import { blankPng, pngDepthBomb } from '../support/decode-bombs.js';
import { workerHarness } from './support/worker-harness.js';

/**
 * On Workers the render runs in the request, with no thread to stop: what a
 * decode would cost is checked from the PNG header (pixels, sample depth,
 * interlacing) before anything decodes, and a file over the budget is
 * refused and marked.
 */
describe('the decode budget on workerd (D1, R2)', () => {
  let api: ApiHarness;
  let owner: string;
  let articleId: string;
  const jobs: RenderJob[] = [];

  beforeAll(async () => {
    api = await workerHarness({ MAX_UPLOAD_BYTES: String(256 * 1024) }, (deps) => ({
      ...deps,
      renderer: {
        lossyWebp: deps.renderer.lossyWebp,
        decodeBudget: deps.renderer.decodeBudget,
        render(job, ticket) {
          jobs.push(job);
          return deps.renderer.render(job, ticket);
        },
      },
    }));
    owner = (await registerOwner(api, 'budget@example.com')).token;
    articleId = (await createArticle(api, owner)).id;
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  const uploadPng = async (bytes: Uint8Array) => {
    const res = await upload(api, owner, articleId, bytes, 'x.png', 'image/png');
    expect(res.status).toBe(201);
    return (await res.json()).image as { id: string; url: string; sha256: string; srcset: string };
  };

  it('is the cost of the largest 8-bit original', () => {
    expect(api.deps.renderer.decodeBudget).toBe(REQUEST_DECODE_BUDGET);
  });

  it('refuses the 16-bit interlaced bomb from its header, without decoding, and marks it', async () => {
    const bomb = await pngDepthBomb();
    expect(bomb.length).toBeLessThan(128 * 1024);
    const image = await uploadPng(bomb);
    const before = jobs.length;
    const res = await api.request(`${image.url}?w=160`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/decode/) });
    expect(jobs.length).toBe(before);
    expect(await env.MEDIA.head(retryMarkerKey(image))).not.toBeNull();
    // Marked: other widths are refused before the original is read, and the library offers none.
    expect((await api.request(`${image.url}?w=320&format=webp`)).status).toBe(400);
    expect(jobs.length).toBe(before);
    const detail = await (await api.request(`/v1/media/${image.id}`, { token: owner })).json();
    expect(detail.image.srcset).toBe('');
  });

  it('still renders what fits: the same size in 8 bits, a smaller 16-bit interlaced PNG', async () => {
    for (const bytes of [
      await blankPng({ width: 2000, height: 2000, bitDepth: 16, colourType: 6, interlaced: true }),
      await blankPng({ width: 4000, height: 4000, colourType: 2 }),
    ]) {
      const image = await uploadPng(bytes);
      const before = jobs.length;
      const res = await api.request(`${image.url}?w=160`);
      expect(res.status).toBe(200);
      expect(jobs.length).toBe(before + 1);
    }
  });
});
