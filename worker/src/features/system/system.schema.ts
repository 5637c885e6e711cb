import * as z from 'zod';
import { TimestampSchema } from '../../contract/common.schema.js';

export const VersionSchema = z
  .object({ version: z.string(), commit: z.string(), builtAt: z.string(), target: z.enum(['workers', 'node']) })
  .meta({ id: 'Version' });
export type VersionDto = z.output<typeof VersionSchema>;

export const HealthSchema = z.object({ ok: z.literal(true) });

/** `/readyz`: 200 when every check passed, 503 otherwise, with the same body. */
export const ReadySchema = z.object({ ok: z.boolean(), checks: z.record(z.string(), z.boolean()) });

const SWITCH_OPERATIONS = ['apply', 'rollback'] as const;

export const UpdateStatusSchema = z
  .object({
    current: z.string(),
    latest: z.string().nullable(),
    available: z.boolean(),
    staged: z.string().nullable(),
    lastCheckedAt: TimestampSchema.nullable(),
    notes: z.string().nullable(),
    supervised: z
      .boolean()
      .describe('Node started by the supervisor: apply and rollback are available (false on Workers)'),
    previous: z.string().nullable().describe('The release a rollback goes back to'),
    pending: z
      .object({ operation: z.enum(SWITCH_OPERATIONS), version: z.string(), since: TimestampSchema })
      .nullable()
      .describe('An apply or rollback the supervisor is carrying out'),
    lastApply: z
      .object({
        id: z.string(),
        operation: z.enum(SWITCH_OPERATIONS),
        version: z.string().describe('The release switched to (or attempted)'),
        from: z.string(),
        outcome: z
          .enum(['applied', 'rolled_back', 'failed'])
          .describe('rolled_back: not healthy in time, `from` runs again; failed: nothing was switched'),
        at: TimestampSchema,
        reason: z.string().nullable(),
        actorId: z.string().nullable(),
      })
      .nullable()
      .describe("The supervisor's last apply or rollback and how it ended"),
    trustedKeys: z
      .number()
      .int()
      .describe('How many release-signing keys this build trusts (active pins); 0: no update can be verified'),
  })
  .meta({ id: 'UpdateStatus' });
export type UpdateStatusDto = z.output<typeof UpdateStatusSchema>;
