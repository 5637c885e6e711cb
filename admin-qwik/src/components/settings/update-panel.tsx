import { $, component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { formatDateTime } from '../../lib/format';
import { SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';
import {
  actionError,
  applyBlocked,
  describeLastApply,
  rollbackBlocked,
  type UpdateAction,
  type UpdateStatus,
} from '../../lib/update';
import { LoadingNotice } from '../status/loading-notice';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError, Status } from '../ui/form-error';

const ACTION_PATHS = {
  check: '/v1/system/update/check',
  download: '/v1/system/update/download',
  apply: '/v1/system/update/apply',
  rollback: '/v1/system/update/rollback',
} as const satisfies Record<UpdateAction, string>;

/** How long to wait for the server to come back after apply / roll back. */
const RESTART_WAIT_MS = 120_000;

/**
 * The update panel of /settings: what runs, what the feed offers, what is
 * staged; for the owner: check now, download + verify + stage, restart to
 * apply, roll back. Every refusal is the API's own message.
 */
export const UpdatePanel = component$(() => {
  const session = useContext(SessionContext);
  const status = useSignal<UpdateStatus | null>(null);
  const loadError = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const message = useSignal<string | null>(null);
  const busy = useSignal<UpdateAction | null>(null);

  const load = $(async () => {
    const res = await call('get', '/v1/system/update');
    if (res.ok) {
      status.value = res.data;
      loadError.value = null;
    } else loadError.value = res.message;
    return res;
  });

  useVisibleTask$(
    async () => {
      await load();
    },
    { strategy: 'document-ready' },
  );

  const run = $(async (action: UpdateAction) => {
    busy.value = action;
    error.value = null;
    message.value =
      action === 'check' ? 'Reading the release feed…' : action === 'download' ? 'Downloading and verifying…' : null;
    const res = await call('post', ACTION_PATHS[action]);
    if (!res.ok) {
      busy.value = null;
      message.value = null;
      error.value = actionError(action, res);
      return;
    }
    status.value = res.data;
    if (action === 'check')
      message.value = res.data.available
        ? `Version ${res.data.latest} is available.`
        : `Up to date: ${res.data.current} is the latest release.`;
    if (action === 'download') message.value = `Version ${res.data.staged} was downloaded, verified and staged.`;
    if (action === 'apply' || action === 'rollback') {
      // The server restarts: wait for it to answer again with the switch done.
      message.value = action === 'apply' ? 'Restarting into the new release…' : 'Restarting into the previous release…';
      const deadline = Date.now() + RESTART_WAIT_MS;
      for (;;) {
        await new Promise((r) => setTimeout(r, 1000));
        const again = await call('get', '/v1/system/update');
        if (again.ok && !again.data.pending) {
          status.value = again.data;
          message.value = again.data.lastApply
            ? describeLastApply(again.data.lastApply)
            : `Running ${again.data.current}.`;
          break;
        }
        if (Date.now() > deadline) {
          message.value = null;
          error.value = 'The server has not come back after two minutes. Reload this page to see its state.';
          break;
        }
      }
    }
    busy.value = null;
  });

  const s = status.value;
  const isOwner = session.user?.role === 'owner';
  const applyReason = s ? applyBlocked(s) : null;
  const rollbackReason = s ? rollbackBlocked(s) : null;
  // Why a switch cannot be pressed, said once when both have the same reason.
  const same = applyReason !== null && applyReason === rollbackReason;
  const applyHint = same ? 'switch-reason' : 'apply-reason';
  const rollbackHint = same ? 'switch-reason' : 'rollback-reason';
  const reasons = same
    ? [{ id: 'switch-reason', text: `Restart to apply and Roll back are not available: ${applyReason}` }]
    : [
        ...(applyReason ? [{ id: 'apply-reason', text: `Restart to apply is not available: ${applyReason}` }] : []),
        ...(rollbackReason ? [{ id: 'rollback-reason', text: `Roll back is not available: ${rollbackReason}` }] : []),
      ];
  return (
    <section class="card" aria-labelledby="update-heading" data-testid="update-panel">
      <h2 id="update-heading">Updates</h2>
      {!s && !loadError.value && <LoadingNotice>Loading update status…</LoadingNotice>}
      <FormError message={loadError.value} />
      {s && (
        <>
          <dl class="facts" data-testid="update-facts">
            <dt>Running</dt>
            <dd>{s.current}</dd>
            <dt>Latest release</dt>
            <dd>{s.latest ?? 'unknown'}</dd>
            <dt>Last checked</dt>
            <dd>{s.lastCheckedAt ? formatDateTime(s.lastCheckedAt) : 'never'}</dd>
            <dt>Staged</dt>
            <dd>{s.staged ?? 'nothing'}</dd>
            {s.previous !== undefined && (
              <>
                <dt>Previous release</dt>
                <dd>{s.previous ?? 'none'}</dd>
              </>
            )}
          </dl>
          {s.trustedKeys === 0 && (
            <p class="notice" data-testid="update-no-key">
              No trusted release key is configured: this build trusts no release-signing key, so no update can be
              verified or installed through the feed. Install new versions by hand until a key is pinned.
            </p>
          )}
          {s.available && (
            <div class="notice" data-testid="update-available">
              <p class="notice-title">{`Version ${s.latest} is available.`}</p>
              {s.notes && <p class="notes">{s.notes}</p>}
            </div>
          )}
          {s.pending && <p class="notice">{`An ${s.pending.operation} to ${s.pending.version} is under way.`}</p>}
          {s.lastApply && <p data-testid="last-apply">{describeLastApply(s.lastApply)}</p>}
        </>
      )}
      <Status message={message.value} testId="update-status" />
      <FormError message={error.value} />
      {s && !isOwner && <p class="hint">Only the owner checks for, downloads and applies updates.</p>}
      {s && isOwner && (
        <div class="actions">
          <button
            type="button"
            class="button"
            disabled={!!busy.value || s.trustedKeys === 0}
            onClick$={() => run('check')}
          >
            {busy.value === 'check' ? 'Checking…' : 'Check now'}
          </button>
          <button
            type="button"
            class="button"
            disabled={!!busy.value || !s.available || s.staged === s.latest}
            onClick$={() => run('download')}
          >
            {busy.value === 'download' ? 'Downloading…' : 'Download + verify + stage'}
          </button>
          <ConfirmButton
            label="Restart to apply"
            question={
              s.staged
                ? `Restart into ${s.staged}? The site is unavailable for a moment.`
                : 'Restart into the staged release?'
            }
            confirmLabel="Yes, restart"
            disabled={!!busy.value || !!applyReason}
            describedBy={applyReason ? applyHint : undefined}
            onConfirm$={() => run('apply')}
          />
          <ConfirmButton
            label="Roll back"
            question={
              s.previous
                ? `Go back to ${s.previous}? The site is unavailable for a moment.`
                : 'Go back to the previous release?'
            }
            confirmLabel="Yes, roll back"
            danger
            disabled={!!busy.value || !!rollbackReason}
            describedBy={rollbackReason ? rollbackHint : undefined}
            onConfirm$={() => run('rollback')}
          />
        </div>
      )}
      {s &&
        isOwner &&
        reasons.map((r) => (
          <p key={r.id} class="hint" id={r.id} data-testid={r.id}>
            {r.text}
          </p>
        ))}
    </section>
  );
});
