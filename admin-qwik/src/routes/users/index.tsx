import { $, component$, useContext, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import type { InvitationDto, PublicUserDto } from '../../../../worker/src/features/accounts/user.schema';
import { LoadingNotice } from '../../components/status/loading-notice';
import { ConfirmButton } from '../../components/ui/confirm-button';
import { FormError, Status } from '../../components/ui/form-error';
import { formatDateTime } from '../../lib/format';
import { SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';

/** Users and invitations: the owner's screen (admins see a notice; the API refuses them anyway). */
export default component$(() => {
  const session = useContext(SessionContext);
  const state = useStore<{
    users: PublicUserDto[];
    usersCursor: string | null;
    invites: InvitationDto[];
    invitesCursor: string | null;
    loading: boolean;
  }>({ users: [], usersCursor: null, invites: [], invitesCursor: null, loading: true });
  const names = useStore<Record<string, string>>({});
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);

  const loadUsers = $(async (cursor: string | null) => {
    const res = await call('get', '/v1/user', { query: { limit: 50, ...(cursor && { cursor }) } });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    state.users = cursor ? [...state.users, ...res.data.items] : res.data.items;
    state.usersCursor = res.data.nextCursor;
    for (const u of res.data.items) names[u.id] = u.displayName ?? '';
  });
  const loadInvites = $(async (cursor: string | null) => {
    const res = await call('get', '/v1/user/invite', { query: { limit: 50, ...(cursor && { cursor }) } });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    state.invites = cursor ? [...state.invites, ...res.data.items] : res.data.items;
    state.invitesCursor = res.data.nextCursor;
  });

  useVisibleTask$(
    async ({ track }) => {
      const role = track(() => session.user?.role);
      if (role !== 'owner') return;
      state.loading = true;
      await Promise.all([loadUsers(null), loadInvites(null)]);
      state.loading = false;
    },
    { strategy: 'document-ready' },
  );

  const done = $((message: string) => {
    error.value = null;
    status.value = message;
  });

  if (session.user && session.user.role !== 'owner')
    return (
      <>
        <h1>Users</h1>
        <p class="notice" role="status">
          Only the owner manages users and invitations.
        </p>
      </>
    );

  const me = session.user;
  return (
    <>
      <h1>Users</h1>
      <FormError message={error.value} />
      <Status message={status.value} testId="users-status" />
      {state.loading && <LoadingNotice>Loading users…</LoadingNotice>}
      <section class="card" aria-labelledby="users-heading">
        <h2 id="users-heading">Accounts</h2>
        <ul class="item-list" data-testid="user-list">
          {state.users.map((u) => (
            <li key={u.id} class="item item-user">
              <div>
                <strong>{u.email}</strong> <span class="badge">{u.role}</span>
                {!u.verified && <span class="badge">unverified</span>}
                <span class="item-meta">
                  Since <time dateTime={u.createdAt}>{formatDateTime(u.createdAt)}</time>
                </span>
              </div>
              <form
                class="inline-form"
                preventdefault:submit
                onSubmit$={async (_, form) => {
                  // The field as it is now: typing can outrun the input handler while the page resumes.
                  const value = (form.querySelector('input') as HTMLInputElement).value.trim();
                  names[u.id] = value;
                  const res = await call('patch', '/v1/user/{id}', {
                    path: { id: u.id },
                    body: { displayName: value || null },
                  });
                  if (!res.ok) {
                    error.value = res.message;
                    return;
                  }
                  state.users = state.users.map((x) => (x.id === u.id ? res.data.user : x));
                  if (me && u.id === me.id) session.user = res.data.user;
                  await done(`Display name of ${u.email} saved.`);
                }}
              >
                <label for={`name-${u.id}`}>Display name of {u.email}</label>
                <input
                  id={`name-${u.id}`}
                  type="text"
                  maxLength={100}
                  value={names[u.id] ?? ''}
                  onInput$={(_, el) => (names[u.id] = el.value)}
                />
                <button type="submit" class="button">
                  Save name
                </button>
              </form>
              {me && u.id !== me.id && (
                <div class="actions">
                  <ConfirmButton
                    label="Make owner"
                    question={`Transfer ownership to ${u.email}? You become an admin.`}
                    confirmLabel="Yes, transfer"
                    onConfirm$={async () => {
                      const res = await call('patch', '/v1/user/{id}', { path: { id: u.id }, body: { role: 'owner' } });
                      if (!res.ok) {
                        error.value = res.message;
                        return;
                      }
                      const meRes = await call('get', '/v1/auth/me');
                      if (meRes.ok) session.user = meRes.data.user;
                      status.value = `${u.email} is now the owner.`;
                    }}
                  />
                  <ConfirmButton
                    label="Delete"
                    question={`Delete the account ${u.email}?`}
                    confirmLabel="Yes, delete"
                    danger
                    onConfirm$={async () => {
                      const res = await call('delete', '/v1/user/{id}', { path: { id: u.id } });
                      if (!res.ok) {
                        error.value = res.message;
                        return;
                      }
                      state.users = state.users.filter((x) => x.id !== u.id);
                      await done(`${u.email} was deleted.`);
                    }}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
        {state.usersCursor && (
          <button type="button" class="button" onClick$={() => loadUsers(state.usersCursor)}>
            Load more users
          </button>
        )}
      </section>

      <section class="card" aria-labelledby="invites-heading">
        <h2 id="invites-heading">Invitations</h2>
        <form
          class="inline-form"
          preventdefault:submit
          onSubmit$={async (_, form) => {
            const email = String(new FormData(form).get('email') ?? '').trim();
            if (!email) return;
            const res = await call('post', '/v1/user/invite', {
              body: { email, role: 'admin' },
            });
            if (!res.ok) {
              error.value = res.issues.length ? res.issues.map((i) => i.message).join(' ') : res.message;
              return;
            }
            state.invites = [res.data.invitation, ...state.invites.filter((i) => i.id !== res.data.invitation.id)];
            form.reset();
            await done(`Invitation sent to ${email}.`);
          }}
        >
          <label for="invite-email">Invite an admin by e-mail</label>
          <input id="invite-email" name="email" type="email" autocomplete="off" required />
          <button type="submit" class="button button-primary">
            Send invitation
          </button>
        </form>
        {state.invites.length === 0 ? (
          <p>No pending invitations.</p>
        ) : (
          <ul class="item-list" data-testid="invite-list">
            {state.invites.map((inv) => (
              <li key={inv.id} class="item">
                <strong>{inv.email}</strong> <span class="badge">{inv.role}</span>
                <span class="item-meta">
                  Expires <time dateTime={inv.expiresAt}>{formatDateTime(inv.expiresAt)}</time>
                </span>
                <div class="actions">
                  <button
                    type="button"
                    class="button"
                    onClick$={async () => {
                      const res = await call('post', '/v1/user/invite/{id}/renew', { path: { id: inv.id } });
                      if (!res.ok) {
                        error.value = res.message;
                        return;
                      }
                      state.invites = state.invites.map((x) => (x.id === inv.id ? res.data.invitation : x));
                      await done(`Invitation to ${inv.email} renewed and sent again.`);
                    }}
                  >
                    Renew
                  </button>
                  <ConfirmButton
                    label="Cancel invitation"
                    question={`Cancel the invitation to ${inv.email}?`}
                    confirmLabel="Yes, cancel it"
                    danger
                    onConfirm$={async () => {
                      const res = await call('delete', '/v1/user/invite/{id}', { path: { id: inv.id } });
                      if (!res.ok) {
                        error.value = res.message;
                        return;
                      }
                      state.invites = state.invites.filter((x) => x.id !== inv.id);
                      await done(`Invitation to ${inv.email} cancelled.`);
                    }}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
        {state.invitesCursor && (
          <button type="button" class="button" onClick$={() => loadInvites(state.invitesCursor)}>
            Load more invitations
          </button>
        )}
      </section>
    </>
  );
});

export const head: DocumentHead = { title: 'Users' };
