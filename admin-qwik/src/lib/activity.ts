import type { ActivityEntryDto, ActivitySummaryDto } from '../../../worker/src/features/activity/activity.schema';
import type { ApiQuery } from './api-types';

export type { ActivityEntryDto, ActivitySummaryDto };

/** The filters as the form holds them: UTC days (`YYYY-MM-DD`), both inclusive. */
export interface ActivityFilters {
  action: string;
  actorId: string;
  fromDay: string;
  toDay: string;
}

export const NO_FILTERS: ActivityFilters = { action: '', actorId: '', fromDay: '', toDay: '' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The filters the list, the summary and the export share. */
export type FilterQuery = Pick<ApiQuery<'/v1/activity/summary', 'get'>, 'action' | 'actorId' | 'from' | 'to'>;

/** The filters → the API's query (`from` inclusive, `to` exclusive: the day after the last one chosen), or what is wrong. */
export function filterQuery(f: ActivityFilters): { query: FilterQuery } | { problem: string } {
  if (f.fromDay && !DAY.test(f.fromDay)) return { problem: 'The first day is not a date.' };
  if (f.toDay && !DAY.test(f.toDay)) return { problem: 'The last day is not a date.' };
  if (f.fromDay && f.toDay && f.fromDay > f.toDay) return { problem: 'The first day must not be after the last day.' };
  const query: FilterQuery = {};
  if (f.action) query.action = f.action;
  if (f.actorId) query.actorId = f.actorId;
  if (f.fromDay) query.from = `${f.fromDay}T00:00:00.000Z`;
  if (f.toDay) query.to = `${nextDay(f.toDay)}T00:00:00.000Z`;
  return { query };
}

/** Every day from the first to the last of `byDay`, the missing ones as 0 (at most `max`, the latest kept). */
export function fillDays(byDay: ActivitySummaryDto['byDay'], max = 92): { day: string; count: number }[] {
  if (byDay.length === 0) return [];
  const counts = new Map(byDay.map((d) => [d.day, d.count]));
  const days: { day: string; count: number }[] = [];
  for (let day = byDay[0]!.day; day <= byDay[byDay.length - 1]!.day; day = nextDay(day))
    days.push({ day, count: counts.get(day) ?? 0 });
  return days.slice(-max);
}

/** A short one-line rendering of an entry's details. */
export function detailsText(details: Record<string, unknown> | null): string {
  if (!details) return '';
  return Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}
