import * as z from 'zod';
import { IdSchema, TimestampSchema } from '../../wire/common.schema.js';
import { PageQuerySchema } from '../../wire/pagination.schema.js';

const instant = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO-8601 date and time, e.g. 2026-11-25T00:00:00Z` })
    .transform((s) => new Date(s));

/** `subject.verb` names, e.g. `article.publish`, `auth.login.failed`. */
export const ActionSchema = z
  .string()
  .max(64, 'action must be at most 64 characters')
  .regex(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/, 'action must look like subject.verb, e.g. article.publish');

const filterFields = {
  action: ActionSchema.optional(),
  actorId: IdSchema.optional(),
  from: instant('from').optional(),
  to: instant('to').optional(),
};
const ordered = (f: { from?: Date | undefined; to?: Date | undefined }) => !f.from || !f.to || f.from < f.to;
const orderedIssue = { message: 'from must be before to', path: ['from'] };

/** The filters shared by the list, the summary and the export. `from` inclusive, `to` exclusive. */
export const ActivityFilterSchema = z.object(filterFields).refine(ordered, orderedIssue);

export const ActivityListQuerySchema = z
  .object({ ...PageQuerySchema.shape, ...filterFields })
  .refine(ordered, orderedIssue);

export const ACTIVITY_EXPORT_FORMATS = ['csv', 'ndjson'] as const;

export const ActivityExportQuerySchema = z
  .object({
    ...filterFields,
    format: z.enum(ACTIVITY_EXPORT_FORMATS, { error: 'format must be csv or ndjson' }).optional().default('ndjson'),
  })
  .refine(ordered, orderedIssue);

export type ActivityFilterInput = z.output<typeof ActivityFilterSchema>;

const ACTOR_TYPES = ['user', 'apiKey', 'system'] as const;

export const ActivityEntrySchema = z
  .object({
    id: z.uuid(),
    at: TimestampSchema,
    actorId: z.string().nullable(),
    actorType: z.enum(ACTOR_TYPES),
    action: z.string(),
    subjectType: z.string().nullable(),
    subjectId: z.string().nullable(),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'ActivityEntry' });
export type ActivityEntryDto = z.output<typeof ActivityEntrySchema>;

const count = z.int();

export const ActivitySummarySchema = z
  .object({
    from: TimestampSchema.nullable(),
    to: TimestampSchema.nullable(),
    total: count,
    /** Most frequent first. */
    byAction: z.array(z.object({ action: z.string(), count })),
    /** Most active first; `actorId` null for the system and for anonymous callers. */
    byActor: z.array(z.object({ actorType: z.enum(ACTOR_TYPES), actorId: z.string().nullable(), count })),
    /** Oldest day first, UTC `YYYY-MM-DD`. */
    byDay: z.array(z.object({ day: z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/), count })),
    /** The log's current size and its bound (ACTIVITY_LOG_MAX_BYTES). */
    sizeBytes: count,
    maxBytes: count,
  })
  .meta({ id: 'ActivitySummary' });
export type ActivitySummaryDto = z.output<typeof ActivitySummarySchema>;
