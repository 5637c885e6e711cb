import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../worker/src/core/shared/crypto.js';
import { createArticle, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { newId } from '../../../support/db-contract.js';
import { SCRIPT } from '../../../support/images.js';

/**
 * The static image route's last wall (docs/security.md, "Uploads and
 * serving"): uploads and imports store only types read from the bytes, and
 * even a row that says otherwise never makes the CMS's origin answer HTML,
 * script or SVG: an original is answered with its file name's image type.
 */
export function runServedTypesApiContract(name: string, setup: SetupApi) {
  describe(`types the static image route answers (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('serves a stored original with the type its file name stands for, whatever its row says', async () => {
      const { id: articleId } = await createArticle(api, owner);
      const types = { png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg' } as const;
      for (const [ext, stored] of [
        ['png', 'text/html'],
        ['gif', 'text/javascript'],
        ['jpg', 'image/svg+xml'],
      ] as const) {
        const id = newId();
        const filename = `${id}.${ext}`;
        // Stores may keep a type beside the bytes (the local directory takes it from the name).
        await api.deps.blobs.put(`originals/${filename}`, SCRIPT, types[ext]);
        // A row no upload or import writes: the database is the last thing the route trusts.
        await api.deps.repos.images.create({
          id,
          articleId,
          filename,
          contentType: stored as never,
          bytes: SCRIPT.byteLength,
          width: 1,
          height: 1,
          sha256: await sha256Hex(SCRIPT),
          createdAt: new Date(),
          originalName: null,
          alt: '',
          caption: '',
        });
        for (const method of ['GET', 'HEAD']) {
          const res = await api.request(`/static/uploadedImages/${filename}`, { method });
          expect(res.status, `${method} ${ext}`).toBe(200);
          expect(res.headers.get('content-type'), `${method} ${ext}`).toBe(types[ext]);
          await res.arrayBuffer();
        }
      }
    });
  });
}
