import * as z from 'zod';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { IdSchema } from '../articles/article.schema.js';

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

export interface ActivityEntryDto {
  id: string;
  at: string;
  actorId: string | null;
  actorType: 'user' | 'apiKey' | 'system';
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
}

export interface ActivitySummaryDto {
  from: string | null;
  to: string | null;
  total: number;
  /** Most frequent first. */
  byAction: { action: string; count: number }[];
  /** Most active first; `actorId` null for the system and for anonymous callers. */
  byActor: { actorType: 'user' | 'apiKey' | 'system'; actorId: string | null; count: number }[];
  /** Oldest day first, UTC `YYYY-MM-DD`. */
  byDay: { day: string; count: number }[];
  /** The log's current size and its bound (ACTIVITY_LOG_MAX_BYTES). */
  sizeBytes: number;
  maxBytes: number;
}
