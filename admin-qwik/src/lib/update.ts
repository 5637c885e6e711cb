import type { ApiAnswer } from './api-types';
import type { Result } from './result';

/**
 * GET /v1/system/update and the POSTs' body, as the server describes it
 * (generated from the OpenAPI description: it cannot drift from the API).
 * Optional here because a stand-in server may send the contract's first six
 * fields only; the screen shows the rest when they come.
 */
type Described = ApiAnswer<'/v1/system/update', 'get'>;
type Contract = 'current' | 'latest' | 'available' | 'staged' | 'lastCheckedAt' | 'notes';
export type UpdateStatus = Pick<Described, Contract> & Partial<Omit<Described, Contract>>;

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
  const op =
    a.operation === 'apply' ? `Update from ${a.from} to ${a.version}` : `Roll back from ${a.from} to ${a.version}`;
  const how =
    a.outcome === 'applied'
      ? 'done'
      : a.outcome === 'rolled_back'
        ? `not healthy, so ${a.from} runs again`
        : 'failed, nothing was switched';
  return `${op}: ${how}${a.reason ? ` (${a.reason})` : ''}.`;
}

const NOT_SUPERVISED = 'This server was not started by the supervisor, so it cannot restart into another release.';

/** Why "Restart to apply" cannot be pressed now, or null when it can. */
export function applyBlocked(s: UpdateStatus): string | null {
  if (s.supervised === false) return NOT_SUPERVISED;
  if (s.pending) return `An ${s.pending.operation} to ${s.pending.version} is under way.`;
  if (!s.staged) return 'Nothing is staged: download and verify a release first.';
  return null;
}

/** Why "Roll back" cannot be pressed now, or null when it can. */
export function rollbackBlocked(s: UpdateStatus): string | null {
  if (s.supervised === false) return NOT_SUPERVISED;
  if (s.pending) return `An ${s.pending.operation} to ${s.pending.version} is under way.`;
  if (s.previous === null) return 'There is no previous release to go back to.';
  return null;
}
