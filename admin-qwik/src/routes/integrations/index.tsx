import { $, component$, useContext, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { LoadingNotice } from '../../components/status/loading-notice';
import { ConfirmButton } from '../../components/ui/confirm-button';
import { FormError, Status } from '../../components/ui/form-error';
import { SecretCard } from '../../components/ui/secret-card';
import { API_KEY_SCOPES, type ApiKeyDto, type ApiKeyScope } from '../../lib/api-keys';
import { formatDateTime } from '../../lib/format';
import { SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';

const SCOPE_TEXT: Record<ApiKeyScope, string> = {
  'content:read': 'read articles, offline ones included',
  'content:write': 'create, edit, publish and delete articles',
  'media:write': 'upload images',
};

/** Integrations: the owner's API keys — list, create (secret shown once, copy), revoke, last used. */
export default component$(() => {
  const session = useContext(SessionContext);
  const list = useStore<{ items: ApiKeyDto[]; nextCursor: string | null; loading: boolean }>({
    items: [],
    nextCursor: null,
    loading: true,
  });
  const secret = useSignal<{ name: string; value: string } | null>(null);
  const formError = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const busy = useSignal(false);

  const load = $(async (cursor: string | null) => {
    list.loading = true;
    const res = await call('get', '/v1/api-keys', { query: { limit: 50, ...(cursor && { cursor }) } });
    list.loading = false;
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    list.items = cursor ? [...list.items, ...res.data.items] : res.data.items;
    list.nextCursor = res.data.nextCursor;
  });

  useVisibleTask$(
    async ({ track }) => {
      const role = track(() => session.user?.role);
      if (role === 'owner') await load(null);
    },
    { strategy: 'document-ready' },
  );

  if (session.user && session.user.role !== 'owner')
    return (
      <div>
        <h1>Integrations</h1>
        <p class="notice" role="status">
          Only the owner manages API keys.
        </p>
      </div>
    );

  const today = new Date().toISOString().slice(0, 10);
  return (
    <div>
      <h1>Integrations</h1>
      <p class="lede">
        API keys let other systems use the API without a password. A key can do only what its scopes allow.
      </p>

      {secret.value && (
        <SecretCard
          title={`The secret of “${secret.value.name}”`}
          inputId="key-secret"
          value={secret.value.value}
          onStored$={() => {
            secret.value = null;
            setTimeout(() => document.getElementById('key-name')?.focus(), 0);
          }}
        >
          Store it where the other system keeps its secrets; it is sent as <code>Authorization: Bearer …</code>.
        </SecretCard>
      )}

      <section class="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">API keys</h2>
        <FormError message={error.value} />
        <Status message={status.value} testId="keys-status" />
        {list.loading && <LoadingNotice>Loading keys…</LoadingNotice>}
        {!list.loading && list.items.length === 0 && <p>No API keys yet.</p>}
        <ul class="item-list" data-testid="key-list">
          {list.items.map((k) => {
            const expired = k.expiresAt !== null && new Date(k.expiresAt).getTime() <= Date.now();
            return (
              <li key={k.id} class="item item-key">
                <div>
                  <strong class="item-title">{k.name}</strong> <code>{k.prefix}…</code>
                  {expired && <span class="badge">expired</span>}
                </div>
                <ul class="scopes" aria-label="Scopes">
                  {k.scopes.map((s) => (
                    <li key={s} class="badge">
                      {s}
                    </li>
                  ))}
                </ul>
                <span class="item-meta" data-testid="key-dates">
                  {`Created ${formatDateTime(k.createdAt)} · last used ${k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'never'} · ${
                    k.expiresAt ? `${expired ? 'expired' : 'expires'} ${formatDateTime(k.expiresAt)}` : 'never expires'
                  }`}
                </span>
                <ConfirmButton
                  label="Revoke"
                  question={`Revoke “${k.name}”? Systems using it are refused from now on.`}
                  confirmLabel="Yes, revoke"
                  danger
                  onConfirm$={async () => {
                    const res = await call('delete', '/v1/api-keys/{id}', { path: { id: k.id } });
                    if (!res.ok) {
                      error.value = res.message;
                      return;
                    }
                    error.value = null;
                    list.items = list.items.filter((x) => x.id !== k.id);
                    status.value = `${k.name} was revoked.`;
                  }}
                />
              </li>
            );
          })}
        </ul>
        {!list.loading && list.nextCursor && (
          <button type="button" class="button" onClick$={() => load(list.nextCursor)}>
            Load more keys
          </button>
        )}
      </section>

      <section class="card" aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">New API key</h2>
        <form
          class="stack"
          noValidate
          preventdefault:submit
          onSubmit$={async (_, form) => {
            formError.value = null;
            status.value = null;
            const data = new FormData(form);
            const name = String(data.get('name') ?? '').trim();
            // Only the scopes this build knows: the form's values are not trusted as typed.
            const scopes = data
              .getAll('scopes')
              .map(String)
              .filter((v): v is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(v));
            const day = String(data.get('expires') ?? '');
            if (!name) {
              formError.value = 'Give the key a name (what uses it).';
              setTimeout(() => document.getElementById('key-name')?.focus(), 0);
              return;
            }
            if (scopes.length === 0) {
              formError.value = 'Choose at least one scope.';
              setTimeout(() => document.getElementById('scope-content:read')?.focus(), 0);
              return;
            }
            // The key works through the whole day chosen (UTC).
            const expiresAt = day ? `${day}T23:59:59.999Z` : null;
            if (expiresAt && new Date(expiresAt).getTime() <= Date.now()) {
              formError.value = 'The expiry day must be today or later.';
              return;
            }
            busy.value = true;
            const res = await call('post', '/v1/api-keys', { body: { name, scopes, expiresAt } });
            busy.value = false;
            if (!res.ok) {
              formError.value = res.issues.length ? res.issues.map((i) => i.message).join(' ') : res.message;
              return;
            }
            list.items = [res.data.apiKey, ...list.items];
            secret.value = { name: res.data.apiKey.name, value: res.data.secret };
            form.reset();
            // `checked` is set as a property, which reset does not keep: read access is the default again.
            const read = document.getElementById('scope-content:read') as HTMLInputElement | null;
            if (read) read.checked = true;
          }}
        >
          <label for="key-name">Name</label>
          <input
            id="key-name"
            name="name"
            type="text"
            maxLength={200}
            autoComplete="off"
            aria-describedby="key-name-hint"
          />
          <p class="hint" id="key-name-hint">
            What uses it, e.g. “Static site build”.
          </p>
          <fieldset class="fieldset">
            <legend class="label-like">Scopes</legend>
            {API_KEY_SCOPES.map((s) => (
              <div class="check" key={s}>
                <input id={`scope-${s}`} name="scopes" type="checkbox" value={s} checked={s === 'content:read'} />
                <label for={`scope-${s}`}>
                  <code>{s}</code> — {SCOPE_TEXT[s]}
                </label>
              </div>
            ))}
          </fieldset>
          <label for="key-expires">
            Expires after <span class="optional">(optional; UTC day)</span>
          </label>
          <input id="key-expires" name="expires" type="date" min={today} />
          <FormError message={formError.value} />
          <button type="submit" class="button button-primary" disabled={busy.value}>
            Create key
          </button>
        </form>
      </section>
    </div>
  );
});

export const head: DocumentHead = { title: 'Integrations' };
