import { $, component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link, useNavigate } from '@builder.io/qwik-city';
import { FormError } from '../../components/ui/form-error';
import { getToken, SessionContext, safeNext, setToken } from '../../lib/session';
import { call } from '../../lib/typed-api';
import { queryParam } from '../../lib/url';

/** Sign in; offers registration while the first account does not exist yet. */
export default component$(() => {
  const session = useContext(SessionContext);
  const nav = useNavigate();
  const email = useSignal('');
  const password = useSignal('');
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const registrationOpen = useSignal(false);
  // Qwik City's client navigation drops the query string of a static page:
  // a `next` with a query or hash gets a full load (the token survives it).
  const goNext = $(async () => {
    const next = safeNext(queryParam('next'));
    if (/[?#]/.test(next)) location.assign(next);
    else await nav(next);
  });

  useVisibleTask$(
    async () => {
      if (getToken() && session.status === 'signed-in') {
        await goNext();
        return;
      }
      const reg = await call('get', '/v1/auth/registration', { auth: false });
      registrationOpen.value = reg.ok && reg.data.open === true;
    },
    { strategy: 'document-ready' },
  );

  return (
    <section class="auth-card" aria-labelledby="login-heading">
      <h1 id="login-heading">Sign in</h1>
      {registrationOpen.value && (
        <p class="notice" data-testid="registration-open">
          No account exists yet. <Link href="/register">Create the first account</Link>.
        </p>
      )}
      <form
        class="stack"
        preventdefault:submit
        onSubmit$={async (_, form) => {
          // Read the fields themselves: typing can outrun the bound signals while the page resumes.
          const data = new FormData(form);
          email.value = String(data.get('email') ?? '');
          password.value = String(data.get('password') ?? '');
          error.value = null;
          busy.value = true;
          const res = await call('post', '/v1/auth/login', {
            auth: false,
            body: { email: email.value.trim(), password: password.value },
          });
          busy.value = false;
          if (!res.ok) {
            error.value = res.status === 401 ? 'The e-mail address or the password is wrong.' : res.message;
            return;
          }
          setToken(res.data.token);
          session.user = res.data.user;
          session.status = 'signed-in';
          if (res.data.user.verified) await goNext();
          else await nav('/register');
        }}
      >
        <label for="login-email">E-mail address</label>
        <input id="login-email" type="email" name="email" autocomplete="username" required />
        <label for="login-password">Password</label>
        <input id="login-password" type="password" name="password" autocomplete="current-password" required />
        <FormError message={error.value} />
        <button type="submit" class="button button-primary" disabled={busy.value}>
          {busy.value ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link href="/reset-password">Forgot your password?</Link>
      </p>
    </section>
  );
});

export const head: DocumentHead = { title: 'Sign in' };
