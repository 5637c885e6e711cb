import { $, component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { offerReauth } from '../../lib/reauth';
import { SessionContext, setToken } from '../../lib/session';
import { call } from '../../lib/typed-api';
import { FormError } from '../ui/form-error';

/** Answers the open dialog's promise (module state: a resolver cannot be serialised by Qwik). */
const pending = { resolve: null as ((ok: boolean) => void) | null };

/**
 * "Sign in again" in place: when the session ends while the editor is open,
 * a modal dialog asks for the password; the call that got the 401 is then
 * sent again (lib/typed-api.ts), so nothing typed and not the place is lost.
 * Cancel keeps the page as it is (the text stays here and in this
 * browser's drafts).
 */
export const ReauthDialog = component$(() => {
  const session = useContext(SessionContext);
  const dialog = useSignal<HTMLDialogElement>();
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  const finish = $((ok: boolean) => {
    dialog.value?.close();
    pending.resolve?.(ok);
    pending.resolve = null;
  });

  useVisibleTask$(
    ({ cleanup }) => {
      const off = offerReauth(
        () =>
          new Promise<boolean>((resolve) => {
            pending.resolve = resolve;
            error.value = null;
            dialog.value?.showModal();
            (document.getElementById('reauth-password') as HTMLInputElement | null)?.focus();
          }),
      );
      cleanup(off);
    },
    { strategy: 'document-ready' },
  );

  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby="reauth-heading"
      aria-describedby="reauth-why"
      data-testid="reauth-dialog"
      onCancel$={() => finish(false)}
    >
      <h2 id="reauth-heading">Sign in again</h2>
      <p id="reauth-why">
        Your session has ended. Sign in to go on: this page and everything typed in it stay as they are.
      </p>
      <form
        class="stack"
        preventdefault:submit
        onSubmit$={async (_, form) => {
          const data = new FormData(form);
          error.value = null;
          busy.value = true;
          const res = await call('post', '/v1/auth/login', {
            auth: false,
            body: { email: String(data.get('email') ?? '').trim(), password: String(data.get('password') ?? '') },
          });
          busy.value = false;
          if (!res.ok) {
            error.value = res.status === 401 ? 'The e-mail address or the password is wrong.' : res.message;
            return;
          }
          setToken(res.data.token);
          session.user = res.data.user;
          form.reset();
          await finish(true);
        }}
      >
        <label for="reauth-email">E-mail address</label>
        <input
          id="reauth-email"
          type="email"
          name="email"
          autocomplete="username"
          required
          value={session.user?.email ?? ''}
        />
        <label for="reauth-password">Password</label>
        <input id="reauth-password" type="password" name="password" autocomplete="current-password" required />
        <FormError message={error.value} />
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={busy.value}>
            {busy.value ? 'Signing in…' : 'Sign in'}
          </button>
          <button type="button" class="button" onClick$={() => finish(false)}>
            Not now
          </button>
        </div>
      </form>
    </dialog>
  );
});
