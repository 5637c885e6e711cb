import { component$, useContext } from '@builder.io/qwik';
import { Link } from '@builder.io/qwik-city';
import { PRODUCT_NAME } from '../../lib/product';
import { clearToken, SessionContext } from '../../lib/session';
import { ColorModeToggle } from './color-mode-toggle';

export const SiteHeader = component$(() => {
  const session = useContext(SessionContext);
  return (
    <header class="site-header">
      <Link href="/" class="brand" prefetch={false}>
        <svg class="brand-mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
          <rect width="32" height="32" rx="7" fill="currentColor" />
          <path d="M9 10h14M9 16h14M9 22h9" stroke="var(--bg)" stroke-width="3" stroke-linecap="round" />
        </svg>
        <span>{PRODUCT_NAME}</span>
        <span class="visually-hidden"> – dashboard</span>
      </Link>
      <div class="header-tools">
        {session.status === 'signed-in' && session.user && (
          <>
            {/* A plain link: a Link component here was sometimes rendered twice when the session arrived. */}
            <a
              href="/profile"
              class="whoami"
              data-testid="whoami"
              aria-label={`Your profile: ${session.user.displayName || session.user.email}, ${session.user.role}`}
            >
              {session.user.displayName || session.user.email} <span class="badge">{session.user.role}</span>
            </a>
            <button
              type="button"
              class="button button-quiet"
              onClick$={async () => {
                // Tokens are stateless: signing out forgets this tab's token. A full load to the
                // login page drops whatever the screens held in memory, and leaves no task of the
                // page that was open to send the visitor to `/login?next=` that page.
                clearToken();
                location.assign('/login');
              }}
            >
              Sign out
            </button>
          </>
        )}
        <ColorModeToggle />
      </div>
    </header>
  );
});
