import * as z from 'zod';
import { TimestampSchema } from '../../wire/common.schema.js';

/**
 * `PUT /v1/media/purge/settings`: every field, strictly typed (a string
 * "true" or "24" is a 400, as is an unknown field).
 */
export const PurgeSettingsSchema = z
  .object({
    enabled: z.boolean(),
    intervalHours: z.number().int('intervalHours must be a whole number').min(1).max(720),
    removeDuplicates: z.boolean(),
    removeOrphans: z.boolean(),
    orphanGraceHours: z.number().int('orphanGraceHours must be a whole number').min(1).max(8760),
    dryRun: z.boolean(),
  })
  .strict();

export type PurgeSettingsInput = z.output<typeof PurgeSettingsSchema>;

/** `POST /v1/media/purge`: a real run unless `dryRun: true`. */
export const PurgeRunRequestSchema = z.object({ dryRun: z.boolean().optional() }).strict();

export const PurgeSettingsDtoSchema = PurgeSettingsSchema.extend({
  /** When the newest run (manual or scheduled) started; null before the first. */
  lastRunAt: TimestampSchema.nullable(),
  /** When the scheduler will next purge (at its first tick from then on); null while disabled. */
  nextRunAt: TimestampSchema.nullable(),
});
export type PurgeSettingsDto = z.output<typeof PurgeSettingsDtoSchema>;

/** What a run removed, or (dry run) would remove. */
export const PurgeRemovedSchema = z.object({
  /** Images folded into an older one with the same bytes. */
  duplicates: z.array(
    z.object({
      imageId: z.string(),
      filename: z.string(),
      survivorId: z.string(),
      survivorFilename: z.string(),
      bytes: z.int(),
    }),
  ),
  /** Blobs under originals/ that no row names. */
  orphanBlobs: z.array(z.object({ key: z.string(), bytes: z.int() })),
  /** Rows whose original blob is gone. */
  rowsWithoutBlob: z.array(z.object({ imageId: z.string(), filename: z.string(), bytes: z.int() })),
});
export type PurgeRemoved = z.output<typeof PurgeRemovedSchema>;

export const PURGE_TRIGGERS = ['manual', 'scheduled'] as const;
export const PURGE_RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;

export const PurgeRunSchema = z
  .object({
    id: z.uuid(),
    trigger: z.enum(PURGE_TRIGGERS),
    dryRun: z.boolean(),
    startedAt: TimestampSchema,
    finishedAt: TimestampSchema.nullable(),
    status: z.enum(PURGE_RUN_STATUSES),
    removed: PurgeRemovedSchema,
    bytesFreed: z.int(),
    error: z.string().nullable(),
  })
  .meta({ id: 'PurgeRun' });
export type PurgeRunDto = z.output<typeof PurgeRunSchema>;
