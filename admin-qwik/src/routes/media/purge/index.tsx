import { $, component$, useContext, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import { RunDetails } from '../../../components/media/run-details';
import { LoadingNotice } from '../../../components/status/loading-notice';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { FormError, Status } from '../../../components/ui/form-error';
import { formatDateTime } from '../../../lib/format';
import {
  describeRemoved,
  type PurgeRunDto,
  type PurgeSettingsDto,
  removedCount,
  settingsFromForm,
} from '../../../lib/purge';
import { SessionContext } from '../../../lib/session';
import { call, type Issue } from '../../../lib/typed-api';

const fieldError = (issues: Issue[], name: string) => issues.find((i) => i.path === name)?.message;

/** `/media/purge`: the purge settings (owner), a dry-run preview, a real run, and the history of runs. */
export default component$(() => {
  const session = useContext(SessionContext);
  const settings = useSignal<PurgeSettingsDto | null>(null);
  const issues = useSignal<Issue[]>([]);
  const settingsError = useSignal<string | null>(null);
  const settingsStatus = useSignal<string | null>(null);
  const preview = useSignal<PurgeRunDto | null>(null);
  const result = useSignal<PurgeRunDto | null>(null);
  const runError = useSignal<string | null>(null);
  const runStatus = useSignal<string | null>(null);
  const busy = useSignal(false);
  const runs = useStore<{ items: PurgeRunDto[]; nextCursor: string | null; loading: boolean; error: string | null }>({
    items: [],
    nextCursor: null,
    loading: true,
    error: null,
  });

  const loadSettings = $(async () => {
    const res = await call('get', '/v1/media/purge/settings');
    if (res.ok) settings.value = res.data.settings;
    else settingsError.value = res.message;
  });
  const loadRuns = $(async (cursor: string | null) => {
    runs.loading = true;
    const res = await call('get', '/v1/media/purge/runs', { query: { limit: 10, ...(cursor && { cursor }) } });
    runs.loading = false;
    if (!res.ok) {
      runs.error = res.message;
      return;
    }
    runs.error = null;
    const items = res.data.items;
    runs.items = cursor ? [...runs.items, ...items] : items;
    runs.nextCursor = res.data.nextCursor;
  });

  useVisibleTask$(
    async () => {
      await Promise.all([loadSettings(), loadRuns(null)]);
    },
    { strategy: 'document-ready' },
  );

  const isOwner = session.user?.role === 'owner';
  const s = settings.value;
  const p = preview.value;
  const done = result.value;
  return (
    <>
      <p>
        <Link href="/media">← Media</Link>
      </p>
      <h1>Media purge</h1>
      <p class="lede">
        Removes duplicate images (same bytes; links move to the older copy) and stored files nothing refers to.
      </p>

      <section class="card" aria-labelledby="purge-settings-heading">
        <h2 id="purge-settings-heading">Settings</h2>
        {!isOwner && (
          <p class="notice" role="status">
            Only the owner changes the purge settings and runs a purge.
          </p>
        )}
        {!s && !settingsError.value && <LoadingNotice>Loading settings…</LoadingNotice>}
        {s && (
          <form
            class="stack"
            noValidate
            preventdefault:submit
            data-testid="purge-settings"
            onSubmit$={async (_, form) => {
              settingsError.value = null;
              settingsStatus.value = null;
              const checked = settingsFromForm(form);
              if ('issues' in checked) {
                issues.value = checked.issues;
                settingsError.value = 'Please correct the marked fields.';
                setTimeout(() => document.getElementById(`purge-${checked.issues[0]?.path}`)?.focus(), 0);
                return;
              }
              issues.value = [];
              const res = await call('put', '/v1/media/purge/settings', {
                body: checked.body,
              });
              if (!res.ok) {
                issues.value = res.issues;
                settingsError.value = res.message;
                return;
              }
              settings.value = res.data.settings;
              settingsStatus.value = 'Purge settings saved.';
            }}
          >
            <fieldset class="fieldset" disabled={!isOwner}>
              <legend class="visually-hidden">Purge settings</legend>
              <div class="check">
                <input id="purge-enabled" name="enabled" type="checkbox" checked={s.enabled} />
                <label for="purge-enabled">Purge on a schedule</label>
              </div>
              <div class="field">
                <label for="purge-intervalHours">Every (hours)</label>
                <input
                  id="purge-intervalHours"
                  name="intervalHours"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={720}
                  step={1}
                  value={String(s.intervalHours)}
                  aria-invalid={fieldError(issues.value, 'intervalHours') ? true : undefined}
                  aria-describedby={fieldError(issues.value, 'intervalHours') ? 'purge-intervalHours-error' : undefined}
                />
                {fieldError(issues.value, 'intervalHours') && (
                  <p class="field-error" id="purge-intervalHours-error">
                    {fieldError(issues.value, 'intervalHours')}
                  </p>
                )}
              </div>
              <div class="check">
                <input
                  id="purge-removeDuplicates"
                  name="removeDuplicates"
                  type="checkbox"
                  checked={s.removeDuplicates}
                />
                <label for="purge-removeDuplicates">Remove duplicate images</label>
              </div>
              <div class="check">
                <input id="purge-removeOrphans" name="removeOrphans" type="checkbox" checked={s.removeOrphans} />
                <label for="purge-removeOrphans">Remove orphans (files without an image, images without a file)</label>
              </div>
              <div class="field">
                <label for="purge-orphanGraceHours">Leave orphans younger than (hours)</label>
                <input
                  id="purge-orphanGraceHours"
                  name="orphanGraceHours"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={8760}
                  step={1}
                  value={String(s.orphanGraceHours)}
                  aria-invalid={fieldError(issues.value, 'orphanGraceHours') ? true : undefined}
                  aria-describedby={
                    fieldError(issues.value, 'orphanGraceHours') ? 'purge-orphanGraceHours-error' : 'purge-grace-hint'
                  }
                />
                <p class="hint" id="purge-grace-hint">
                  So that an upload in progress is never taken for an orphan.
                </p>
                {fieldError(issues.value, 'orphanGraceHours') && (
                  <p class="field-error" id="purge-orphanGraceHours-error">
                    {fieldError(issues.value, 'orphanGraceHours')}
                  </p>
                )}
              </div>
              <div class="check">
                <input id="purge-dryRun" name="dryRun" type="checkbox" checked={s.dryRun} />
                <label for="purge-dryRun">Scheduled runs only report (dry run)</label>
              </div>
            </fieldset>
            <dl class="facts" data-testid="purge-times">
              <dt>Last run</dt>
              <dd>{s.lastRunAt ? formatDateTime(s.lastRunAt) : 'never'}</dd>
              <dt>Next scheduled run</dt>
              <dd>{s.nextRunAt ? formatDateTime(s.nextRunAt) : 'none (not scheduled)'}</dd>
            </dl>
            <FormError message={settingsError.value} />
            <Status message={settingsStatus.value} testId="purge-settings-status" />
            {isOwner && (
              <button type="submit" class="button button-primary">
                Save settings
              </button>
            )}
          </form>
        )}
        {!s && <FormError message={settingsError.value} />}
      </section>

      {isOwner && (
        <section class="card" aria-labelledby="purge-run-heading" data-testid="purge-run">
          <h2 id="purge-run-heading">Run a purge now</h2>
          <p>First see what would go (nothing is removed), then purge.</p>
          <div class="actions">
            <button
              type="button"
              class="button"
              disabled={busy.value}
              onClick$={async () => {
                busy.value = true;
                runError.value = null;
                runStatus.value = 'Looking for duplicates and orphans…';
                result.value = null;
                const res = await call('post', '/v1/media/purge', { body: { dryRun: true } });
                busy.value = false;
                if (!res.ok) {
                  runStatus.value = null;
                  runError.value = res.message;
                  return;
                }
                const run = res.data.run;
                preview.value = run;
                runStatus.value =
                  run.status === 'failed' ? null : `Preview: a purge would remove ${describeRemoved(run)}.`;
                if (run.status === 'failed') runError.value = `The dry run failed: ${run.error ?? 'unknown error'}`;
                await loadRuns(null);
              }}
            >
              Preview (dry run)
            </button>
          </div>
          <Status message={runStatus.value} testId="purge-run-status" />
          <FormError message={runError.value} />
          {p && !done && (
            <div data-testid="purge-preview">
              <h3>Would be removed</h3>
              <RunDetails run={p} />
              {removedCount(p) > 0 && (
                <ConfirmButton
                  label="Purge now"
                  question={`Remove ${describeRemoved(p)} for good?`}
                  confirmLabel="Yes, purge"
                  danger
                  onConfirm$={async () => {
                    runError.value = null;
                    const res = await call('post', '/v1/media/purge', { body: { dryRun: false } });
                    if (!res.ok) {
                      runError.value = res.message;
                      return;
                    }
                    const run = res.data.run;
                    result.value = run;
                    preview.value = null;
                    if (run.status === 'failed') runError.value = `The purge failed: ${run.error ?? 'unknown error'}`;
                    else runStatus.value = `Purged: ${describeRemoved(run)} removed.`;
                    await Promise.all([loadRuns(null), loadSettings()]);
                  }}
                />
              )}
            </div>
          )}
          {done && (
            <div data-testid="purge-result">
              <h3>Removed</h3>
              <RunDetails run={done} />
            </div>
          )}
        </section>
      )}

      <section class="card" aria-labelledby="purge-history-heading">
        <h2 id="purge-history-heading">History</h2>
        <FormError message={runs.error} />
        {runs.items.length === 0 && !runs.loading && !runs.error && <p>No purge has run yet.</p>}
        <ul class="item-list" aria-busy={runs.loading} data-testid="purge-runs">
          {runs.items.map((run) => (
            <li key={run.id} class="item item-run">
              <details>
                <summary>
                  <time dateTime={run.startedAt}>{formatDateTime(run.startedAt)}</time>
                  {` · ${run.trigger} · ${run.dryRun ? 'dry run' : 'purge'} · `}
                  <span class={['badge', run.status === 'succeeded' ? 'badge-ok' : '']}>{run.status}</span>
                  {` · ${run.dryRun ? 'would remove' : 'removed'} ${describeRemoved(run)}`}
                </summary>
                {run.error && <p class="field-error">{run.error}</p>}
                <RunDetails run={run} />
              </details>
            </li>
          ))}
        </ul>
        {runs.loading && <LoadingNotice>Loading runs…</LoadingNotice>}
        {!runs.loading && runs.nextCursor && (
          <button type="button" class="button" onClick$={() => loadRuns(runs.nextCursor)}>
            Load more runs
          </button>
        )}
      </section>
    </>
  );
});

export const head: DocumentHead = { title: 'Media purge' };
