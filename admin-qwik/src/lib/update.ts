import type { Result } from './http';

/**
 * GET /v1/system/update and the POSTs' body. The first six fields are the
 * contract (API.md); the rest come with apply / rollback (the supervisor) and
 * are shown when the server sends them.
 */
export interface UpdateStatus {
  current: string;
  latest: string | null;
  available: boolean;
  staged: string | null;
  lastCheckedAt: string | null;
  notes: string | null;
  supervised?: boolean;
  previous?: string | null;
  pending?: { operation: 'apply' | 'rollback'; version: string; since: string } | null;
  lastApply?: {
    operation: 'apply' | 'rollback';
    version: string;
    from: string;
    outcome: 'applied' | 'rolled_back' | 'failed';
    at: string;
    reason: string | null;
  } | null;
}

export type UpdateAction = 'check' | 'download' | 'apply' | 'rollback';

export const ACTION_NAMES: Record<UpdateAction, string> = {
  check: 'Checking for updates',
  download: 'Download, verify and stage',
  apply: 'Restart to apply',
  rollback: 'Roll back',
};

/** An action's failure in words: the API's own message, with what could not be done. */
export function actionError(action: UpdateAction, res: Extract<Result<unknown>, { ok: false }>): string {
  const what = ACTION_NAMES[action];
  if (res.status === 404 || res.status === 501) return `${what} is not available on this server: ${res.message}`;
  const detail = res.issues.filter((i) => i.message && !res.message.includes(i.message)).map((i) => i.message);
  return `${what} failed: ${[res.message, ...detail].join(' — ')}`;
}

/** `applied`, `rolled_back`, `failed` → words. */
export function describeLastApply(a: NonNullable<UpdateStatus['lastApply']>): string {
  const op = a.operation === 'apply' ? `Update from ${a.from} to ${a.version}` : `Roll back from ${a.from} to ${a.version}`;
  const how = a.outcome === 'applied' ? 'done' : a.outcome === 'rolled_back' ? `not healthy, so ${a.from} runs again` : 'failed, nothing was switched';
  return `${op}: ${how}${a.reason ? ` (${a.reason})` : ''}.`;
}
