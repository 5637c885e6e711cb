import * as z from 'zod';

/**
 * The export archive: gzip of NDJSON, one record per line, the same on both
 * targets. A header first, then every row of the exported tables (parents
 * before children), then every original image as base64, then an end record
 * whose counts prove the archive was not cut short (docs/backups.md).
 * NDJSON over gzip needs no archive library: both runtimes stream gzip with
 * CompressionStream, and JSON.parse reads each bounded line.
 */
export const ARCHIVE_FORMAT = 'edge-cms.export/1';
export const ARCHIVE_MEDIA_TYPE = 'application/gzip';

export const HeaderRecord = z.object({
  kind: z.literal('header'),
  format: z.literal(ARCHIVE_FORMAT),
  product: z.literal('edge-cms'),
  version: z.string().max(64),
  exportedAt: z.string().max(64),
  tables: z.array(z.string().max(64)).max(100),
});
export const RowRecord = z.object({
  kind: z.literal('row'),
  table: z.string().max(64),
  row: z.record(z.string().max(64), z.unknown()),
});
export const BlobRecord = z.object({
  kind: z.literal('blob'),
  key: z
    .string()
    .max(300)
    .regex(/^originals\/[A-Za-z0-9._-]+$/, 'an original image key'),
  contentType: z.string().max(100),
  data: z.string(),
});
export const EndRecord = z.object({
  kind: z.literal('end'),
  rows: z.number().int().nonnegative(),
  blobs: z.number().int().nonnegative(),
});
export const ArchiveRecord = z.discriminatedUnion('kind', [HeaderRecord, RowRecord, BlobRecord, EndRecord]);
export type ArchiveRecord = z.output<typeof ArchiveRecord>;
