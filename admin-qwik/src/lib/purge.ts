import './zod-csp';
import {
  type PurgeRunDto,
  type PurgeSettingsDto,
  PurgeSettingsSchema,
} from '../../../worker/src/features/purge/purge.schema';
import { formatBytes } from './format';
import type { Issue } from './result';

export type { PurgeRunDto, PurgeSettingsDto };

export type PurgeSettingsForm = Omit<PurgeSettingsDto, 'lastRunAt' | 'nextRunAt'>;

/** How many things a run removed (or, as a dry run, would remove). */
export function removedCount(run: Pick<PurgeRunDto, 'removed'>): number {
  const r = run.removed;
  return r.duplicates.length + r.orphanBlobs.length + r.rowsWithoutBlob.length;
}

/** `3 items, 1.2 MiB` / `1 item, 67 B` / `nothing`. */
export function describeRemoved(run: Pick<PurgeRunDto, 'removed' | 'bytesFreed'>): string {
  const n = removedCount(run);
  return n === 0 ? 'nothing' : `${n} ${n === 1 ? 'item' : 'items'}, ${formatBytes(run.bytesFreed)}`;
}

/** What each number must be (the schema's limits, said for people). */
const RULES: Record<string, string> = {
  intervalHours: 'A whole number of hours from 1 to 720.',
  orphanGraceHours: 'A whole number of hours from 1 to 8760.',
};

/** The settings form → the PUT body, with the API's own schema (numbers strictly whole and in range). */
export function settingsFromForm(form: HTMLFormElement | FormData): { body: PurgeSettingsForm } | { issues: Issue[] } {
  // FormData too, so the rule can be checked without a document (test/unit/admin-forms.test.ts).
  const data = form instanceof FormData ? form : new FormData(form);
  const num = (name: string) => {
    const raw = String(data.get(name) ?? '').trim();
    return raw === '' ? Number.NaN : Number(raw);
  };
  const body = {
    enabled: data.get('enabled') === 'on',
    intervalHours: num('intervalHours'),
    removeDuplicates: data.get('removeDuplicates') === 'on',
    removeOrphans: data.get('removeOrphans') === 'on',
    orphanGraceHours: num('orphanGraceHours'),
    dryRun: data.get('dryRun') === 'on',
  };
  const result = PurgeSettingsSchema.safeParse(body);
  if (result.success) return { body: result.data };
  return {
    issues: result.error.issues.map((i) => {
      const path = i.path.join('.');
      return { path, message: RULES[path] ?? i.message };
    }),
  };
}
