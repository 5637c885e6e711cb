import * as z from 'zod';

export {
  type UpdateStatusDto,
  UpdateStatusSchema,
  type VersionDto,
  VersionSchema,
} from '../../wire/version.schema.js';

export const HealthSchema = z.object({ ok: z.literal(true) });

/** `/readyz`: 200 when every check passed, 503 otherwise, with the same body. */
export const ReadySchema = z.object({ ok: z.boolean(), checks: z.record(z.string(), z.boolean()) });
