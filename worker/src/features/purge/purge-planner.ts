import type { BlobInfo } from '../../ports/blob-store.js';
import { type Image, originalKey } from '../media/index.js';
import type { PurgeRemoved, PurgeSettings } from './purge.entities.js';

const HOUR_MS = 60 * 60 * 1000;

export interface PurgeInventory {
  /** Every image row. */
  images: Image[];
  /** Every blob under `originals/`. */
  originals: BlobInfo[];
}

const oldestFirst = (a: Image, b: Image) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

/**
 * What a purge removes, decided from one snapshot. Dry runs and real runs
 * both call this, so a dry run shows exactly what the real one would do.
 *
 * - Duplicates: rows with the same SHA-256 fold into the oldest one whose
 *   blob exists (a survivor without bytes would lose the image); a group
 *   with no stored blob at all is left to the orphan rules.
 * - Orphans, both older than the grace so an upload in flight (blob written,
 *   row not yet) is never touched: blobs no row names, and rows whose blob
 *   is gone (unless they are folded as duplicates, which keeps their links).
 */
export function planPurge(inventory: PurgeInventory, settings: PurgeSettings, now: Date): PurgeRemoved {
  const removed: PurgeRemoved = { duplicates: [], orphanBlobs: [], rowsWithoutBlob: [] };
  const stored = new Set(inventory.originals.map((b) => b.key));
  const folded = new Set<string>();

  if (settings.removeDuplicates) {
    const bySha = new Map<string, Image[]>();
    for (const image of inventory.images) {
      const group = bySha.get(image.sha256);
      if (group) group.push(image);
      else bySha.set(image.sha256, [image]);
    }
    for (const group of bySha.values()) {
      if (group.length < 2) continue;
      const sorted = [...group].sort(oldestFirst);
      const survivor = sorted.find((image) => stored.has(originalKey(image.filename)));
      if (!survivor) continue;
      for (const image of sorted) {
        if (image === survivor) continue;
        folded.add(image.id);
        removed.duplicates.push({
          imageId: image.id,
          filename: image.filename,
          survivorId: survivor.id,
          survivorFilename: survivor.filename,
          bytes: stored.has(originalKey(image.filename)) ? image.bytes : 0,
        });
      }
    }
  }

  if (settings.removeOrphans) {
    const cutoff = now.getTime() - settings.orphanGraceHours * HOUR_MS;
    const named = new Set(inventory.images.map((image) => originalKey(image.filename)));
    for (const blob of inventory.originals) {
      if (!named.has(blob.key) && blob.uploadedAt.getTime() <= cutoff) {
        removed.orphanBlobs.push({ key: blob.key, bytes: blob.size });
      }
    }
    for (const image of inventory.images) {
      if (folded.has(image.id) || stored.has(originalKey(image.filename))) continue;
      if (image.createdAt.getTime() <= cutoff) {
        removed.rowsWithoutBlob.push({ imageId: image.id, filename: image.filename, bytes: 0 });
      }
    }
  }

  const byKey = (a: { key?: string; imageId?: string }, b: { key?: string; imageId?: string }) =>
    (a.key ?? a.imageId ?? '') < (b.key ?? b.imageId ?? '') ? -1 : 1;
  removed.duplicates.sort(byKey);
  removed.orphanBlobs.sort(byKey);
  removed.rowsWithoutBlob.sort(byKey);
  return removed;
}

export function bytesOf(removed: PurgeRemoved): number {
  const sum = (items: { bytes: number }[]) => items.reduce((n, item) => n + item.bytes, 0);
  return sum(removed.duplicates) + sum(removed.orphanBlobs) + sum(removed.rowsWithoutBlob);
}
