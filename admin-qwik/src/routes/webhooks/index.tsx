import { $, component$, useContext, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { LoadingNotice } from '../../components/status/loading-notice';
import { ConfirmButton } from '../../components/ui/confirm-button';
import { FormError, Status } from '../../components/ui/form-error';
import { SecretCard } from '../../components/ui/secret-card';
import { formatDateTime } from '../../lib/format';
import { SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookAttemptDto,
  type WebhookDto,
  type WebhookEventType,
} from '../../lib/webhooks';

const EVENT_TEXT: Record<WebhookEventType, string> = {
  'article.created': 'an article is created',
  'article.updated': 'an article or its SEO data is edited',
  'article.published': 'an article goes online (by hand or on schedule)',
  'article.unpublished': 'an article goes offline',
  'article.deleted': 'an article is deleted',
  'image.uploaded': 'an image is uploaded',
  'image.deleted': 'an image is deleted',
};

const attemptText = (a: WebhookAttemptDto) =>
  `${a.type} · try ${a.attempt} · ${a.statusCode ?? 'no answer'}${a.error ? ` (${a.error})` : ''} · ${a.status}${
    a.nextAttemptAt ? `, again ${formatDateTime(a.nextAttemptAt)}` : ''
  }`;

/** Webhooks: the owner's endpoints — list, create (secret shown once), test, deliveries, pause, delete. */
export default component$(() => {
  const session = useContext(SessionContext);
  const list = useStore<{ items: WebhookDto[]; loading: boolean }>({ items: [], loading: true });
  const attempts = useStore<Record<string, WebhookAttemptDto[]>>({});
  const secret = useSignal<{ url: string; value: string } | null>(null);
  const formError = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const busy = useSignal(false);

  const load = $(async () => {
    list.loading = true;
    const res = await call('get', '/v1/webhooks', { query: { limit: 100 } });
    list.loading = false;
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    list.items = res.data.items;
  });

  const loadAttempts = $(async (id: string) => {
    const res = await call('get', '/v1/webhooks/{id}/deliveries', { path: { id }, query: { limit: 20 } });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    attempts[id] = res.data.items;
  });

  useVisibleTask$(
    async ({ track }) => {
      const role = track(() => session.user?.role);
      if (role === 'owner') await load();
    },
    { strategy: 'document-ready' },
  );

  const test = $(async (w: WebhookDto) => {
    error.value = null;
    status.value = `Sending a test to ${w.url}…`;
    const res = await call('post', '/v1/webhooks/{id}/test', { path: { id: w.id } });
    if (!res.ok) {
      status.value = null;
      error.value = res.message;
      return;
    }
    const a = res.data.attempt;
    status.value =
      a.status === 'delivered'
        ? `Test delivered: ${w.url} answered ${a.statusCode}.`
        : `Test not delivered: ${a.statusCode ? `${w.url} answered ${a.statusCode}` : (a.error ?? 'no answer')}.`;
    await loadAttempts(w.id);
  });

  const setActive = $(async (w: WebhookDto, active: boolean) => {
    error.value = null;
    const res = await call('patch', '/v1/webhooks/{id}', { path: { id: w.id }, body: { active } });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    list.items = list.items.map((x) => (x.id === w.id ? res.data.webhook : x));
    status.value = active ? `${w.url} gets events again.` : `${w.url} is paused: nothing new is queued for it.`;
  });

  if (session.user && session.user.role !== 'owner')
    return (
      <div>
        <h1>Webhooks</h1>
        <p class="notice" role="status">
          Only the owner manages webhooks.
        </p>
      </div>
    );

  return (
    <div>
      <h1>Webhooks</h1>
      <p class="lede">
        Webhooks tell other systems (a static site’s build, a search index) what changed, as signed POST requests
        following the Standard Webhooks specification. Failed deliveries are retried for hours.
      </p>

      {secret.value && (
        <SecretCard
          title={`The signing secret of ${secret.value.url}`}
          inputId="webhook-secret"
          value={secret.value.value}
          onStored$={() => {
            secret.value = null;
            setTimeout(() => document.getElementById('webhook-url')?.focus(), 0);
          }}
        >
          The receiver checks the <code>webhook-signature</code> header with it.
        </SecretCard>
      )}

      <section class="card" aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">Endpoints</h2>
        <FormError message={error.value} />
        <Status message={status.value} testId="webhooks-status" />
        {list.loading && <LoadingNotice>Loading webhooks…</LoadingNotice>}
        {!list.loading && list.items.length === 0 && <p>No webhooks yet.</p>}
        <ul class="item-list" data-testid="webhook-list">
          {list.items.map((w) => (
            <li key={w.id} class="item item-key">
              <div>
                <strong class="item-title">{w.url}</strong> {!w.active && <span class="badge">paused</span>}
              </div>
              {w.description && <span class="item-meta">{w.description}</span>}
              <ul class="scopes" aria-label="Events">
                {w.events.map((e) => (
                  <li key={e} class="badge">
                    {e}
                  </li>
                ))}
              </ul>
              <span class="item-meta">{`Created ${formatDateTime(w.createdAt)}`}</span>
              <div class="actions">
                <button type="button" class="button" onClick$={() => test(w)}>
                  Send test
                </button>
                <button type="button" class="button" onClick$={() => loadAttempts(w.id)}>
                  Deliveries
                </button>
                <button type="button" class="button" onClick$={() => setActive(w, !w.active)}>
                  {w.active ? 'Pause' : 'Resume'}
                </button>
                <ConfirmButton
                  label="Delete"
                  question={`Delete the webhook to ${w.url}? What it is still owed is dropped.`}
                  confirmLabel="Yes, delete"
                  danger
                  onConfirm$={async () => {
                    const res = await call('delete', '/v1/webhooks/{id}', { path: { id: w.id } });
                    if (!res.ok) {
                      error.value = res.message;
                      return;
                    }
                    list.items = list.items.filter((x) => x.id !== w.id);
                    status.value = `The webhook to ${w.url} was deleted.`;
                  }}
                />
              </div>
              {attempts[w.id] && (
                <section aria-label={`Deliveries to ${w.url}`} data-testid="deliveries">
                  {attempts[w.id]!.length === 0 ? (
                    <p class="hint">Nothing sent yet.</p>
                  ) : (
                    <ol class="item-list">
                      {attempts[w.id]!.map((a) => (
                        <li key={a.id} class="item-meta">
                          <time dateTime={a.at}>{formatDateTime(a.at)}</time> {attemptText(a)}
                        </li>
                      ))}
                    </ol>
                  )}
                </section>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section class="card" aria-labelledby="new-webhook-heading">
        <h2 id="new-webhook-heading">New webhook</h2>
        <form
          class="stack"
          noValidate
          preventdefault:submit
          onSubmit$={async (_, form) => {
            formError.value = null;
            status.value = null;
            const data = new FormData(form);
            const url = String(data.get('url') ?? '').trim();
            const description = String(data.get('description') ?? '').trim();
            // Only the events this build knows: the form's values are not trusted as typed.
            const events = data
              .getAll('events')
              .map(String)
              .filter((v): v is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(v));
            if (!/^https?:\/\/\S+$/i.test(url)) {
              formError.value = 'Give the address that receives the events (http:// or https://).';
              setTimeout(() => document.getElementById('webhook-url')?.focus(), 0);
              return;
            }
            if (events.length === 0) {
              formError.value = 'Choose at least one event.';
              setTimeout(() => document.getElementById('event-article.published')?.focus(), 0);
              return;
            }
            busy.value = true;
            const res = await call('post', '/v1/webhooks', {
              body: { url, events, ...(description && { description }) },
            });
            busy.value = false;
            if (!res.ok) {
              formError.value = res.issues.length ? res.issues.map((i) => i.message).join(' ') : res.message;
              return;
            }
            list.items = [res.data.webhook, ...list.items];
            secret.value = { url: res.data.webhook.url, value: res.data.secret };
            form.reset();
            const published = document.getElementById('event-article.published') as HTMLInputElement | null;
            if (published) published.checked = true;
          }}
        >
          <label for="webhook-url">Address</label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            maxLength={2048}
            autoComplete="off"
            placeholder="https://build.example.com/hooks/cms"
          />
          <fieldset class="fieldset">
            <legend class="label-like">Events</legend>
            {WEBHOOK_EVENT_TYPES.map((e) => (
              <div class="check" key={e}>
                <input id={`event-${e}`} name="events" type="checkbox" value={e} checked={e === 'article.published'} />
                <label for={`event-${e}`}>
                  <code>{e}</code> — {EVENT_TEXT[e]}
                </label>
              </div>
            ))}
          </fieldset>
          <label for="webhook-description">
            Description <span class="optional">(optional)</span>
          </label>
          <input id="webhook-description" name="description" type="text" maxLength={500} />
          <FormError message={formError.value} />
          <button type="submit" class="button button-primary" disabled={busy.value}>
            Create webhook
          </button>
        </form>
      </section>
    </div>
  );
});

export const head: DocumentHead = { title: 'Webhooks' };
