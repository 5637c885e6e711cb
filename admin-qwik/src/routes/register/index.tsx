import { component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import { LoadingNotice } from '../../components/status/loading-notice';
import { ConfirmButton } from '../../components/ui/confirm-button';
import { FormError, Status } from '../../components/ui/form-error';
import { clearToken, getToken, SessionContext, setToken } from '../../lib/session';
import { call } from '../../lib/typed-api';

type View = 'loading' | 'closed' | 'form' | 'check-email';

/**
 * First run: the registration form while `GET /v1/auth/registration` says
 * open; after registering, "check your e-mail" with resend and cancel.
 */
export default component$(() => {
  const session = useContext(SessionContext);
  const view = useSignal<View>('loading');
  const email = useSignal('');
  const displayName = useSignal('');
  const password = useSignal('');
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const busy = useSignal(false);
  const registeredAs = useSignal('');

  useVisibleTask$(
    async () => {
      if (getToken()) {
        const me = await call('get', '/v1/auth/me');
        if (me.ok && !me.data.user.verified) {
          registeredAs.value = me.data.user.email;
          view.value = 'check-email';
          return;
        }
      }
      const reg = await call('get', '/v1/auth/registration', { auth: false });
      view.value = reg.ok && reg.data.open ? 'form' : 'closed';
    },
    { strategy: 'document-ready' },
  );

  return (
    <section class="auth-card" aria-labelledby="register-heading">
      <h1 id="register-heading">{view.value === 'check-email' ? 'Check your e-mail' : 'Create the first account'}</h1>
      {view.value === 'loading' && <LoadingNotice>Checking whether registration is open…</LoadingNotice>}
      {view.value === 'closed' && (
        <p class="notice" role="status">
          Registration is closed: an account already exists. <Link href="/login">Sign in</Link>, or ask the owner for an
          invitation.
        </p>
      )}
      {view.value === 'form' && (
        <form
          class="stack"
          preventdefault:submit
          noValidate
          onSubmit$={async (_, form) => {
            // Read the fields themselves: typing can outrun the bound signals while the page resumes.
            const data = new FormData(form);
            email.value = String(data.get('email') ?? '');
            displayName.value = String(data.get('displayName') ?? '');
            password.value = String(data.get('password') ?? '');
            error.value = null;
            if (password.value.length < 12) {
              error.value = 'The password must be at least 12 characters.';
              return;
            }
            busy.value = true;
            const name = displayName.value.trim();
            const res = await call('post', '/v1/auth/register', {
              auth: false,
              body: { email: email.value.trim(), password: password.value, ...(name && { displayName: name }) },
            });
            busy.value = false;
            if (!res.ok) {
              error.value = res.issues.length ? res.issues.map((i) => i.message).join(' ') : res.message;
              return;
            }
            setToken(res.data.token);
            session.user = res.data.user;
            session.status = 'signed-in';
            registeredAs.value = res.data.user.email;
            view.value = 'check-email';
          }}
        >
          <label for="reg-email">E-mail address</label>
          <input id="reg-email" name="email" type="email" autocomplete="email" required />
          <label for="reg-name">Display name (optional)</label>
          <input id="reg-name" name="displayName" type="text" autocomplete="name" maxLength={100} />
          <label for="reg-password">Password</label>
          <input
            id="reg-password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minLength={12}
            aria-describedby="reg-password-hint"
          />
          <p id="reg-password-hint" class="hint">
            At least 12 characters.
          </p>
          <FormError message={error.value} />
          <button type="submit" class="button button-primary" disabled={busy.value}>
            {busy.value ? 'Creating…' : 'Create account'}
          </button>
        </form>
      )}
      {view.value === 'check-email' && (
        <div class="stack" data-testid="check-email">
          <p>
            We sent a link to <strong>{registeredAs.value}</strong>. Open it to verify your address, then sign in.
          </p>
          <div class="actions">
            <button
              type="button"
              class="button"
              disabled={busy.value}
              onClick$={async () => {
                error.value = null;
                const res = await call('post', '/v1/auth/verify/resend');
                if (res.ok) status.value = 'A new link is on its way; the previous one no longer works.';
                else error.value = res.message;
              }}
            >
              Send the e-mail again
            </button>
            <ConfirmButton
              label="Cancel registration"
              question="Delete this unverified account?"
              confirmLabel="Yes, cancel registration"
              danger
              onConfirm$={async () => {
                const res = await call('delete', '/v1/auth/registration');
                if (!res.ok) {
                  error.value = res.message;
                  return;
                }
                clearToken();
                session.status = 'signed-out';
                session.user = null;
                status.value = 'Your registration was cancelled.';
                view.value = 'form';
              }}
            />
          </div>
          <FormError message={error.value} />
        </div>
      )}
      <Status message={status.value} />
    </section>
  );
});

export const head: DocumentHead = { title: 'Create account' };
