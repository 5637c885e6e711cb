import * as z from 'zod';

/** How far ahead a publication may be scheduled. */
export const MAX_SCHEDULE_AHEAD_DAYS = 3660;

export const ScheduleSchema = z.object({
  publishAt: z.iso
    .datetime({ offset: true, error: 'publishAt must be an ISO-8601 date and time' })
    .transform((s) => new Date(s)),
});
export type ScheduleInput = z.output<typeof ScheduleSchema>;

/** What one scheduler run did, for the tick's log line. */
export interface SchedulerSummary {
  /** Articles this run published. */
  published: number;
  /** Another run held the lease: this one did nothing. */
  skipped: boolean;
}
