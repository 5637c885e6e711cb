import { $, component$, type Signal, useSignal } from '@builder.io/qwik';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import { formatDateTime } from '../../lib/format';
import { call } from '../../lib/typed-api';
import { ConfirmButton } from '../ui/confirm-button';
import { CopyField } from '../ui/copy-field';
import { FormError, Status } from '../ui/form-error';

/** How long a preview link may live, as the API bounds it (60 s to 30 days; 7 days by default). */
const PREVIEW_LIFETIMES = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
] as const;

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as a datetime-local input takes it. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The editor's "Schedule and preview" card: publish at a set time (or
 * cancel it), and links that show the article as it stands to someone
 * without an account. Mounted by the editor with one line; it keeps the
 * editor's article signal up to date.
 */
export const ScheduleAndPreview = component$((props: { article: Signal<ArticleDto | null> }) => {
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const busy = useSignal(false);
  const link = useSignal<{ url: string; expiresAt: string } | null>(null);

  const schedule = $(async (form: HTMLFormElement) => {
    const article = props.article.value;
    if (!article) return;
    error.value = null;
    status.value = null;
    const value = (form.querySelector('#publish-at') as HTMLInputElement).value;
    const when = value ? new Date(value) : null;
    if (!when || Number.isNaN(when.getTime())) {
      error.value = 'Choose a date and time.';
      document.getElementById('publish-at')?.focus();
      return;
    }
    if (when.getTime() <= Date.now()) {
      error.value = 'Choose a time in the future.';
      document.getElementById('publish-at')?.focus();
      return;
    }
    busy.value = true;
    const res = await call('post', '/v1/articles/{id}/schedule', {
      path: { id: article.id },
      body: { publishAt: when.toISOString() },
    });
    busy.value = false;
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    props.article.value = res.data ? res.data.article : { ...article, scheduledAt: when.toISOString() };
    status.value = `Scheduled: it goes online on ${formatDateTime(when.toISOString())}.`;
  });

  const unschedule = $(async () => {
    const article = props.article.value;
    if (!article) return;
    error.value = null;
    const res = await call('delete', '/v1/articles/{id}/schedule', { path: { id: article.id } });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    props.article.value = { ...article, scheduledAt: null };
    status.value = 'The schedule was cancelled: the article stays offline.';
  });

  const makeLink = $(async (form: HTMLFormElement) => {
    const article = props.article.value;
    if (!article) return;
    error.value = null;
    const seconds = Number((form.querySelector('#preview-lifetime') as HTMLSelectElement).value);
    const res = await call('post', '/v1/articles/{id}/preview', {
      path: { id: article.id },
      body: { expiresInSeconds: seconds },
    });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    link.value = res.data;
    status.value = `A preview link was made; it works until ${formatDateTime(res.data.expiresAt)}.`;
  });

  const revoke = $(async () => {
    const article = props.article.value;
    if (!article) return;
    error.value = null;
    const res = await call('delete', '/v1/articles/{id}/preview', { path: { id: article.id } });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    link.value = null;
    status.value = 'Every preview link of this article has stopped working.';
  });

  const a = props.article.value;
  if (!a) return null;
  const inFiveMinutes = localInputValue(new Date(Date.now() + 5 * 60_000));
  return (
    <section class="card" aria-labelledby="publishing-heading" data-testid="schedule-and-preview">
      <h2 id="publishing-heading">Schedule and preview</h2>
      {a.status === 'online' ? (
        <p>This article is online. Unpublish it to schedule it again.</p>
      ) : a.scheduledAt ? (
        <div class="stack">
          <p data-testid="scheduled-at">
            Goes online on <strong>{formatDateTime(a.scheduledAt)}</strong>.
          </p>
          <ConfirmButton
            label="Cancel schedule"
            question="Keep this article offline, without a publication time?"
            confirmLabel="Yes, cancel it"
            onConfirm$={unschedule}
          />
        </div>
      ) : (
        <form class="inline-form" noValidate preventdefault:submit onSubmit$={(_, form) => schedule(form)}>
          <label for="publish-at">Publish at</label>
          <input id="publish-at" type="datetime-local" min={inFiveMinutes} aria-describedby="publish-at-hint" />
          <button type="submit" class="button" disabled={busy.value}>
            Schedule
          </button>
          <p class="hint" id="publish-at-hint">
            Your local time. It stays offline until then; publishing or unpublishing by hand cancels it.
          </p>
        </form>
      )}

      <h3 class="label-like">Preview link</h3>
      <p class="hint">Anyone with the link reads the article as it stands, online or not, until the link expires.</p>
      <form class="inline-form" noValidate preventdefault:submit onSubmit$={(_, form) => makeLink(form)}>
        <label for="preview-lifetime">Valid for</label>
        <select id="preview-lifetime" value={String(7 * 86_400)}>
          {PREVIEW_LIFETIMES.map((l) => (
            <option key={l.seconds} value={String(l.seconds)}>
              {l.label}
            </option>
          ))}
        </select>
        <button type="submit" class="button">
          Create preview link
        </button>
      </form>
      {link.value && (
        <div data-testid="preview-link">
          <CopyField id="preview-url" label="Link" value={link.value.url} statusTestId="preview-copy-status" />
        </div>
      )}
      <ConfirmButton
        label="Revoke preview links"
        question="Stop every preview link of this article from working?"
        confirmLabel="Yes, revoke them"
        danger
        onConfirm$={revoke}
      />
      <FormError message={error.value} />
      <Status message={status.value} testId="schedule-status" />
    </section>
  );
});
