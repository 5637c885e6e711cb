import * as z from 'zod';
import { TimestampSchema } from './common.schema.js';

/** What build answers (the platform's build info, the system feature's routes). */
export const VersionSchema = z
  .object({ version: z.string(), commit: z.string(), builtAt: z.string(), target: z.enum(['workers', 'node']) })
  .meta({ id: 'Version' });
export type VersionDto = z.output<typeof VersionSchema>;

/** Where self-updates stand: the release pipeline (core/releases) reports it, the system feature serves it. */
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
