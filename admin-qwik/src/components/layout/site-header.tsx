import { component$, useContext } from '@builder.io/qwik';
import { Link, useNavigate } from '@builder.io/qwik-city';
import { PRODUCT_NAME } from '../../lib/product';
import { clearToken, SessionContext } from '../../lib/session';
import { ColorModeToggle } from './color-mode-toggle';

export const SiteHeader = component$(() => {
  const session = useContext(SessionContext);
  const nav = useNavigate();
  return (
    <header class="site-header">
      <Link href="/" class="brand">
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
            <span class="whoami" data-testid="whoami">
              {session.user.displayName || session.user.email} <span class="badge">{session.user.role}</span>
            </span>
            <button
              type="button"
              class="button button-quiet"
              onClick$={async () => {
                // Tokens are stateless: signing out forgets this tab's token.
                clearToken();
                session.status = 'signed-out';
                session.user = null;
                await nav('/login');
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
