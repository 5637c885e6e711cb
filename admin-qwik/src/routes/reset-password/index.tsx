import { component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import { FormError, Status } from '../../components/ui/form-error';
import { clearToken, SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';
import { queryParam } from '../../lib/url';

/** Without `?code=`: ask for a reset link. With it: choose a new password. */
export default component$(() => {
  const session = useContext(SessionContext);
  const code = useSignal<string | null>(null);
  const email = useSignal('');
  const password = useSignal('');
  const repeat = useSignal('');
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const busy = useSignal(false);
  const done = useSignal(false);

  useVisibleTask$(() => {
    code.value = queryParam('code');
  });

  return (
    <section class="auth-card" aria-labelledby="reset-heading">
      <h1 id="reset-heading">{code.value ? 'Choose a new password' : 'Reset your password'}</h1>
      {!code.value && (
        <form
          class="stack"
          preventdefault:submit
          noValidate
          onSubmit$={async (_, form) => {
            // Uncontrolled fields, read on submit: typing can outrun bound signals while the page resumes.
            email.value = String(new FormData(form).get('email') ?? '');
            error.value = null;
            status.value = null;
            busy.value = true;
            const res = await call('post', '/v1/auth/password-reset', {
              auth: false,
              body: { email: email.value.trim() },
            });
            busy.value = false;
            if (res.ok) status.value = 'If an account uses that address, we sent it a link to choose a new password.';
            else error.value = res.message;
          }}
        >
          <label for="reset-email">E-mail address</label>
          <input id="reset-email" name="email" type="email" autocomplete="email" required />
          <FormError message={error.value} />
          <button type="submit" class="button button-primary" disabled={busy.value}>
            Send the link
          </button>
        </form>
      )}
      {code.value && !done.value && (
        <form
          class="stack"
          preventdefault:submit
          onSubmit$={async (_, form) => {
            const resetCode = code.value;
            if (!resetCode) return; // the form shows only with a code
            const data = new FormData(form);
            password.value = String(data.get('password') ?? '');
            repeat.value = String(data.get('repeat') ?? '');
            error.value = null;
            if (password.value.length < 12) {
              error.value = 'The password must be at least 12 characters.';
              return;
            }
            if (password.value !== repeat.value) {
              error.value = 'The two passwords differ.';
              return;
            }
            busy.value = true;
            const res = await call('post', '/v1/auth/password-reset/confirm', {
              auth: false,
              body: { code: resetCode, password: password.value },
            });
            busy.value = false;
            if (!res.ok) {
              error.value =
                res.code === 'invalid_request' && !res.issues.some((i) => i.path === 'password')
                  ? 'This reset link is invalid or has expired. Ask for a new one.'
                  : res.message;
              return;
            }
            // Every earlier session is refused now, this tab's included.
            clearToken();
            session.status = 'signed-out';
            session.user = null;
            done.value = true;
          }}
        >
          <label for="reset-password">New password</label>
          <input
            id="reset-password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minLength={12}
            aria-describedby="reset-hint"
          />
          <p id="reset-hint" class="hint">
            At least 12 characters.
          </p>
          <label for="reset-repeat">Repeat the new password</label>
          <input id="reset-repeat" name="repeat" type="password" autocomplete="new-password" required />
          <FormError message={error.value} />
          <button type="submit" class="button button-primary" disabled={busy.value}>
            Change password
          </button>
        </form>
      )}
      {done.value && (
        <p class="notice" role="status">
          Your password was changed. <Link href="/login">Sign in</Link> with the new one.
        </p>
      )}
      <Status message={status.value} />
      <p>
        <Link href="/login">Back to sign in</Link>
      </p>
    </section>
  );
});

export const head: DocumentHead = { title: 'Reset password' };
