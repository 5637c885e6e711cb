import { component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, useNavigate } from '@builder.io/qwik-city';
import { FormError } from '../../components/ui/form-error';
import { SessionContext, setToken } from '../../lib/session';
import { call } from '../../lib/typed-api';
import { queryParam } from '../../lib/url';

/** `/accept-invite?code=…`: a password and a display name, then signed in. */
export default component$(() => {
  const session = useContext(SessionContext);
  const nav = useNavigate();
  const code = useSignal<string | null>(null);
  const displayName = useSignal('');
  const password = useSignal('');
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  useVisibleTask$(() => {
    code.value = queryParam('code');
    if (!code.value) error.value = 'This link has no invitation code. Open the link from the e-mail again.';
  });

  return (
    <section class="auth-card" aria-labelledby="invite-heading">
      <h1 id="invite-heading">Accept your invitation</h1>
      <form
        class="stack"
        preventdefault:submit
        noValidate
        onSubmit$={async (_, form) => {
          // Read the fields themselves: typing can outrun the bound signals while the page resumes.
          const data = new FormData(form);
          displayName.value = String(data.get('displayName') ?? '');
          password.value = String(data.get('password') ?? '');
          error.value = null;
          if (!code.value) {
            error.value = 'This link has no invitation code.';
            return;
          }
          if (password.value.length < 12) {
            error.value = 'The password must be at least 12 characters.';
            return;
          }
          busy.value = true;
          const name = displayName.value.trim();
          const res = await call('post', '/v1/auth/invitation/accept', {
            auth: false,
            body: { code: code.value, password: password.value, ...(name && { displayName: name }) },
          });
          busy.value = false;
          if (!res.ok) {
            error.value =
              res.code === 'invalid_request' &&
              !res.issues.some((i) => i.path === 'password' || i.path === 'displayName')
                ? 'This invitation is invalid, expired, cancelled or already used. Ask the owner for a new one.'
                : res.message;
            return;
          }
          setToken(res.data.token);
          session.user = res.data.user;
          session.status = 'signed-in';
          await nav('/');
        }}
      >
        <label for="invite-name">Display name</label>
        <input id="invite-name" name="displayName" type="text" autocomplete="name" maxLength={100} />
        <label for="invite-password">Password</label>
        <input
          id="invite-password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minLength={12}
          aria-describedby="invite-hint"
        />
        <p id="invite-hint" class="hint">
          At least 12 characters.
        </p>
        <FormError message={error.value} />
        <button type="submit" class="button button-primary" disabled={busy.value}>
          Accept and sign in
        </button>
      </form>
    </section>
  );
});

export const head: DocumentHead = { title: 'Accept invitation' };
