import type { ActivityEntryDto } from './activity.schema.js';

export const CSV_COLUMNS = [
  'id',
  'at',
  'actorType',
  'actorId',
  'action',
  'subjectType',
  'subjectId',
  'ip',
  'details',
] as const;

/**
 * RFC 4180 quoting, and a leading `'` before `= + - @` (and tab/CR) so that a
 * value a client chose (a title, an e-mail address) is never run as a
 * formula when the export is opened in a spreadsheet.
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvHeader = (): string => `${CSV_COLUMNS.join(',')}\r\n`;

export function csvRow(e: ActivityEntryDto): string {
  const details = e.details === null ? null : JSON.stringify(e.details);
  return (
    [e.id, e.at, e.actorType, e.actorId, e.action, e.subjectType, e.subjectId, e.ip, details].map(csvField).join(',') +
    '\r\n'
  );
}

export const ndjsonRow = (e: ActivityEntryDto): string => `${JSON.stringify(e)}\n`;
