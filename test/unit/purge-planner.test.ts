import { describe, expect, it } from 'vitest';
import { originalKey } from '../../worker/src/features/media/blob-keys.js';
import type { Image } from '../../worker/src/features/media/images.port.js';
import { DEFAULT_PURGE_SETTINGS } from '../../worker/src/features/purge/purge.entities.js';
import { bytesOf, planPurge } from '../../worker/src/features/purge/purge-planner.js';
import type { BlobInfo } from '../../worker/src/ports/blob-store.js';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const HOUR = 60 * 60 * 1000;
let seq = 0;

function image(sha: string, ageHours: number, overrides: Partial<Image> = {}): Image {
  const id = `0190a000-0000-7000-8000-${String(++seq).padStart(12, '0')}`;
  return {
    id,
    articleId: '0190a000-0000-7000-8000-aaaaaaaaaaaa',
    filename: `${id}.png`,
    contentType: 'image/png',
    bytes: 100 + seq,
    width: 1,
    height: 1,
    sha256: sha.repeat(64),
    createdAt: new Date(NOW.getTime() - ageHours * HOUR),
    originalName: null,
    alt: '',
    caption: '',
    ...overrides,
  };
}
const blobOf = (img: Image, ageHours = 48): BlobInfo => ({
  key: originalKey(img.filename),
  size: img.bytes,
  contentType: img.contentType,
  uploadedAt: new Date(NOW.getTime() - ageHours * HOUR),
});

describe('planPurge', () => {
  it('folds each group of equal bytes into its oldest stored copy', () => {
    const oldest = image('a', 30);
    const middle = image('a', 20);
    const newest = image('a', 10);
    const single = image('b', 40);
    const plan = planPurge(
      { images: [newest, single, oldest, middle], originals: [oldest, middle, newest, single].map((i) => blobOf(i)) },
      DEFAULT_PURGE_SETTINGS,
      NOW,
    );
    expect(plan.duplicates.map((d) => [d.imageId, d.survivorId])).toEqual([
      [middle.id, oldest.id],
      [newest.id, oldest.id],
    ]);
    expect(bytesOf(plan)).toBe(middle.bytes + newest.bytes);
    expect(plan.orphanBlobs).toEqual([]);
    expect(plan.rowsWithoutBlob).toEqual([]);
  });

  it('never picks a survivor without bytes; a group with no stored copy is left to the orphan rules', () => {
    const lostOldest = image('c', 30);
    const stored = image('c', 20);
    const lostA = image('d', 30);
    const lostB = image('d', 25);
    const plan = planPurge(
      { images: [lostOldest, stored, lostA, lostB], originals: [blobOf(stored)] },
      DEFAULT_PURGE_SETTINGS,
      NOW,
    );
    expect(plan.duplicates).toEqual([
      {
        imageId: lostOldest.id,
        filename: lostOldest.filename,
        survivorId: stored.id,
        survivorFilename: stored.filename,
        bytes: 0,
      },
    ]);
    expect(plan.rowsWithoutBlob.map((r) => r.imageId).sort()).toEqual([lostA.id, lostB.id].sort());
  });

  it('touches orphans only once older than the grace, and nothing a setting turns off', () => {
    const fresh = image('e', 23);
    const old = image('f', 25);
    const strayOld: BlobInfo = {
      key: originalKey('stray-old.png'),
      size: 7,
      contentType: 'image/png',
      uploadedAt: new Date(NOW.getTime() - 25 * HOUR),
    };
    const strayNew: BlobInfo = {
      ...strayOld,
      key: originalKey('stray-new.png'),
      uploadedAt: new Date(NOW.getTime() - 23 * HOUR),
    };
    const inventory = { images: [fresh, old], originals: [strayOld, strayNew] };
    const plan = planPurge(inventory, DEFAULT_PURGE_SETTINGS, NOW);
    expect(plan.orphanBlobs).toEqual([{ key: strayOld.key, bytes: 7 }]);
    expect(plan.rowsWithoutBlob.map((r) => r.imageId)).toEqual([old.id]);
    expect(planPurge(inventory, { ...DEFAULT_PURGE_SETTINGS, removeOrphans: false }, NOW)).toEqual({
      duplicates: [],
      orphanBlobs: [],
      rowsWithoutBlob: [],
    });
    const twin = image('e', 50);
    const dupes = { images: [fresh, twin], originals: [blobOf(fresh), blobOf(twin)] };
    expect(planPurge(dupes, { ...DEFAULT_PURGE_SETTINGS, removeDuplicates: false }, NOW).duplicates).toEqual([]);
  });
});
