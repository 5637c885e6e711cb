import * as z from 'zod';

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

export interface PurgeSettingsDto extends PurgeSettingsInput {
  /** When the newest run (manual or scheduled) started; null before the first. */
  lastRunAt: string | null;
  /** When the scheduler will next purge (at its first tick from then on); null while disabled. */
  nextRunAt: string | null;
}

export interface PurgeRunDto {
  id: string;
  trigger: 'manual' | 'scheduled';
  dryRun: boolean;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'succeeded' | 'failed';
  removed: {
    duplicates: { imageId: string; filename: string; survivorId: string; survivorFilename: string; bytes: number }[];
    orphanBlobs: { key: string; bytes: number }[];
    rowsWithoutBlob: { imageId: string; filename: string; bytes: number }[];
  };
  bytesFreed: number;
  error: string | null;
}
