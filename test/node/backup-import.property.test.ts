import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImageHeader } from '../../worker/src/core/media/image-header.js';
import { IMAGE_CONTENT_TYPES } from '../../worker/src/features/media/media.schema.js';
import { registerOwner } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import {
  archivedUser,
  type CraftedFile,
  craftArchive,
  expectNothingImported,
  importInto,
  type Row,
} from '../support/archives.js';
import {
  GIF_1x1,
  gifWithFrames,
  HTML,
  JPEG_2x3,
  PNG_1x1,
  pngBomb,
  SCRIPT,
  SVG,
  WEBP_1x1,
  ZIP,
} from '../support/images.js';
import { NODE_MAX_UPLOAD_BYTES, nodeHarness } from '../support/node-harness.js';

const PASSWORD = 'the archive knows this password';
const ALLOWED: readonly string[] = IMAGE_CONTENT_TYPES;

/**
 * The importer against archives fast-check makes up (roles, credentials,
 * file bytes, types and sizes), on a real SQLite database and directory.
 * Whatever the archive: never a 5xx; an import that succeeds stored no
 * usable password and no file but an allowed image, answered with the
 * type of its bytes; one that is refused left nothing behind.
 */
describe('import of made-up archives (fuzzed)', () => {
  let api: ApiHarness;
  let token: string;
  let ownerId: string;
  let hash: string;

  beforeAll(async () => {
    api = await nodeHarness({ db: 'sqlite', storage: 'local' });
    ({ token, id: ownerId } = await registerOwner(api, 'owner@example.com'));
    hash = await api.deps.passwords.hash(PASSWORD);
  }, 60_000);
  afterAll(() => api?.cleanup());

  const role = fc.oneof(
    fc.constantFrom<unknown>('admin', 'owner', 'root', 'Owner', ' admin', '', 0, null),
    fc.string({ maxLength: 12 }),
  );
  const hostileUser = fc
    .record(
      {
        role,
        passwordHash: fc.constantFrom<unknown>('HASH', '!', '', 5),
        resetCodeHash: fc.stringMatching(/^[0-9a-f]{64}$/),
        tokenVersion: fc.integer({ min: -1, max: 9 }),
        ownerLock: fc.constantFrom<unknown>(null, 1, 2),
      },
      { requiredKeys: ['role'] },
    )
    .map((over): Row => archivedUser(over.passwordHash === 'HASH' ? { ...over, passwordHash: hash } : over));
  // Mostly importable rows, so that successful imports are checked too.
  const user = fc.oneof(
    {
      arbitrary: fc
        .constantFrom('admin', 'owner')
        .map((r) => archivedUser({ role: r, ownerLock: r === 'owner' ? 1 : null })),
      weight: 4,
    },
    { arbitrary: hostileUser, weight: 1 },
  );
  const bytes = fc.oneof(
    fc.constantFrom(PNG_1x1, GIF_1x1, JPEG_2x3, WEBP_1x1, HTML, SVG, SCRIPT, ZIP, pngBomb(), gifWithFrames(1001)),
    fc.uint8Array({ maxLength: 300 }),
    fc.integer({ min: 0, max: 4096 }).map((n) => {
      const big = new Uint8Array(NODE_MAX_UPLOAD_BYTES - 2048 + n);
      big.set(PNG_1x1);
      return big;
    }),
  );
  const hostileFile = fc.record({
    bytes,
    contentType: fc.oneof(
      { arbitrary: fc.constantFrom(...IMAGE_CONTENT_TYPES), weight: 3 },
      {
        arbitrary: fc.oneof(
          fc.constantFrom('text/html', 'text/javascript', 'image/svg+xml', 'image/png; x=1'),
          fc.string({ maxLength: 20 }),
        ),
        weight: 1,
      },
    ),
    // Mostly a row that tells the truth about the bytes, so that the bytes themselves are what is tried.
    row: fc.oneof(
      { arbitrary: fc.constant({}), weight: 3 },
      {
        arbitrary: fc.record(
          {
            bytes: fc.integer({ min: -1, max: 2 * NODE_MAX_UPLOAD_BYTES }),
            width: fc.integer({ min: 0, max: 70_000 }),
            height: fc.integer({ min: 0, max: 70_000 }),
          },
          { requiredKeys: [] },
        ),
        weight: 1,
      },
    ),
  }) satisfies fc.Arbitrary<CraftedFile>;
  const goodFile = fc.constantFrom(PNG_1x1, GIF_1x1, WEBP_1x1, JPEG_2x3).map((b): CraftedFile => {
    const header = readImageHeader(b)!;
    return { bytes: b, contentType: header.contentType, row: { width: header.width, height: header.height } };
  });
  const file = fc.oneof({ arbitrary: goodFile, weight: 1 }, { arbitrary: hostileFile, weight: 2 });

  const check = async (users: Row[], files: CraftedFile[]) => {
    const res = await importInto(api, token, await craftArchive({ users, files }));
    expect([200, 400, 413], await res.clone().text()).toContain(res.status);
    if (res.status !== 200) {
      await expectNothingImported(api, token);
      return;
    }
    for (const u of users) {
      const stored = await api.deps.repos.users.findByEmail(String(u.email));
      if (stored && stored.id !== ownerId)
        expect(await api.deps.passwords.verify(PASSWORD, stored.passwordHash)).toBe(false);
    }
    const media = (await (await api.request('/v1/media', { token })).json()).items as {
      url: string;
      contentType: string;
    }[];
    for (const m of media) {
      expect(ALLOWED).toContain(m.contentType);
      const served = await api.request(new URL(m.url).pathname);
      const body = new Uint8Array(await served.arrayBuffer());
      expect(served.headers.get('content-type')).toBe(m.contentType);
      expect(readImageHeader(body)?.contentType).toBe(m.contentType);
    }
  };

  it('never answers 5xx, never stores a usable password or a file that is not an allowed image, and is all or nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(user, { maxLength: 3 }), fc.array(file, { maxLength: 3 }), async (users, files) => {
        try {
          await check(users, files);
        } finally {
          // Back to an installation without content for the next archive, whatever this one did.
          await api.deps.repos.backup.clear([ownerId]);
          for (const blob of (await api.deps.blobs.list('originals/')).items) await api.deps.blobs.delete(blob.key);
        }
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});
