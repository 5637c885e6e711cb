import { component$, useContext, useSignal } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { FormError, Status } from '../../components/ui/form-error';
import { SessionContext, setToken } from '../../lib/session';
import { call } from '../../lib/typed-api';

/**
 * `/profile`: the signed-in user's own display name and password
 * (PATCH /v1/auth/me). Changing the password ends every other session: the
 * API answers with a fresh token for this one, which replaces the old.
 */
export default component$(() => {
  const session = useContext(SessionContext);
  const nameError = useSignal<string | null>(null);
  const nameStatus = useSignal<string | null>(null);
  const pwError = useSignal<string | null>(null);
  const pwStatus = useSignal<string | null>(null);
  const pwField = useSignal<string | null>(null);
  const busy = useSignal(false);
  const user = session.user;

  return (
    <>
      <h1>Your profile</h1>
      {user && (
        <p class="lede">
          Signed in as <strong>{user.email}</strong> ({user.role}).
        </p>
      )}
      <section class="card" aria-labelledby="name-heading">
        <h2 id="name-heading">Display name</h2>
        <form
          class="stack"
          noValidate
          preventdefault:submit
          onSubmit$={async (_, form) => {
            nameError.value = null;
            nameStatus.value = null;
            const value = String(new FormData(form).get('displayName') ?? '').trim();
            if (value.length > 100) {
              nameError.value = 'The display name must be at most 100 characters.';
              return;
            }
            const res = await call('patch', '/v1/auth/me', {
              body: { displayName: value || null },
            });
            if (!res.ok) {
              nameError.value = res.issues.length ? res.issues.map((i) => i.message).join(' ') : res.message;
              return;
            }
            session.user = res.data.user;
            nameStatus.value = value ? `Your display name is now ${value}.` : 'Your display name was removed.';
          }}
        >
          <label for="profile-name">Display name</label>
          <input
            id="profile-name"
            name="displayName"
            type="text"
            maxLength={100}
            autoComplete="name"
            value={user?.displayName ?? ''}
            aria-describedby="profile-name-hint"
          />
          <p class="hint" id="profile-name-hint">
            Shown in the header and the activity log. Leave empty to show your e-mail address.
          </p>
          <FormError message={nameError.value} />
          <Status message={nameStatus.value} testId="name-status" />
          <button type="submit" class="button button-primary">
            Save name
          </button>
        </form>
      </section>

      <section class="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <form
          class="stack"
          noValidate
          preventdefault:submit
          onSubmit$={async (_, form) => {
            pwError.value = null;
            pwStatus.value = null;
            pwField.value = null;
            const data = new FormData(form);
            const currentPassword = String(data.get('currentPassword') ?? '');
            const password = String(data.get('password') ?? '');
            const confirm = String(data.get('confirm') ?? '');
            const fail = (field: string, message: string) => {
              pwField.value = field;
              pwError.value = message;
              setTimeout(() => document.getElementById(`profile-${field}`)?.focus(), 0);
            };
            if (!currentPassword) return fail('currentPassword', 'Enter your current password.');
            if (password.length < 12) return fail('password', 'The new password must be at least 12 characters.');
            if (password.length > 1024) return fail('password', 'The new password must be at most 1024 characters.');
            if (password !== confirm) return fail('confirm', 'The two new passwords differ.');
            busy.value = true;
            const res = await call('patch', '/v1/auth/me', {
              body: { currentPassword, password },
            });
            busy.value = false;
            if (!res.ok) {
              if (res.issues.some((i) => i.path === 'currentPassword'))
                return fail('currentPassword', 'The current password is wrong.');
              pwError.value = res.message;
              return;
            }
            if (res.data.token) setToken(res.data.token);
            session.user = res.data.user;
            form.reset();
            pwStatus.value = 'Password changed. Other sessions are signed out.';
          }}
        >
          <label for="profile-currentPassword">Current password</label>
          <input
            id="profile-currentPassword"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            aria-invalid={pwField.value === 'currentPassword' ? true : undefined}
            aria-describedby={pwField.value === 'currentPassword' ? 'profile-password-error' : undefined}
          />
          <label for="profile-password">New password</label>
          <input
            id="profile-password"
            name="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={pwField.value === 'password' ? true : undefined}
            aria-describedby={
              pwField.value === 'password' ? 'profile-password-error profile-password-hint' : 'profile-password-hint'
            }
          />
          <p class="hint" id="profile-password-hint">
            At least 12 characters; any characters.
          </p>
          <label for="profile-confirm">New password again</label>
          <input
            id="profile-confirm"
            name="confirm"
            type="password"
            autoComplete="new-password"
            aria-invalid={pwField.value === 'confirm' ? true : undefined}
            aria-describedby={pwField.value === 'confirm' ? 'profile-password-error' : undefined}
          />
          <FormError message={pwError.value} id="profile-password-error" />
          <Status message={pwStatus.value} testId="password-status" />
          <button type="submit" class="button button-primary" disabled={busy.value}>
            Change password
          </button>
        </form>
      </section>
    </>
  );
});

export const head: DocumentHead = { title: 'Your profile' };
