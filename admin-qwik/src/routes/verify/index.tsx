import { component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import { LoadingNotice } from '../../components/status/loading-notice';
import { FormError } from '../../components/ui/form-error';
import { clearToken, SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';
import { queryParam } from '../../lib/url';

/** `/verify?code=…` from the e-mail: verifies, then asks to sign in. */
export default component$(() => {
  const session = useContext(SessionContext);
  const state = useSignal<'working' | 'done' | 'failed'>('working');
  const error = useSignal<string | null>(null);

  useVisibleTask$(
    async () => {
      const code = queryParam('code');
      if (!code) {
        state.value = 'failed';
        error.value = 'This link has no verification code. Open the link from the e-mail again.';
        return;
      }
      const res = await call('post', '/v1/auth/verify', { auth: false, body: { code } });
      if (!res.ok) {
        state.value = 'failed';
        error.value =
          res.code === 'invalid_request'
            ? 'This verification link is invalid or has expired. Sign in to send a new one.'
            : res.message;
        return;
      }
      // The registration session was an unverified one: sign in afresh.
      clearToken();
      session.status = 'signed-out';
      session.user = null;
      state.value = 'done';
    },
    { strategy: 'document-ready' },
  );

  return (
    <section class="auth-card" aria-labelledby="verify-heading">
      <h1 id="verify-heading">Verify your e-mail</h1>
      {state.value === 'working' && <LoadingNotice>Verifying…</LoadingNotice>}
      {state.value === 'done' && (
        <p class="notice" role="status">
          Your e-mail address is verified. <Link href="/login">Sign in</Link> to continue.
        </p>
      )}
      {state.value === 'failed' && (
        <>
          <FormError message={error.value} />
          <p>
            <Link href="/login">Sign in</Link>
          </p>
        </>
      )}
    </section>
  );
});

export const head: DocumentHead = { title: 'Verify e-mail' };
