import { component$, Slot, useContextProvider, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { useLocation, useNavigate } from '@builder.io/qwik-city';
import { RouteAnnouncer } from '../components/layout/route-announcer';
import { SiteHeader } from '../components/layout/site-header';
import { SiteNav } from '../components/layout/site-nav';
import { LoadingNotice } from '../components/status/loading-notice';
import { getToken, isPublicPath, loginHref, SessionContext, type SessionState } from '../lib/session';
import { call } from '../lib/typed-api';

/** Set once the guard has sent the browser to the login page: a second replace would abort the first. (An object: Qwik moves tasks into modules of their own, where a module `let` cannot be assigned.) */
const guard = { redirecting: false };

/**
 * Every page: skip link, header (brand, colour mode, who is signed in),
 * navigation, main content. The session guard lives here: a page that is not
 * public waits, hidden, until `GET /v1/auth/me` confirms a verified session;
 * without a token the visitor goes to the login page, and an unverified
 * registrant to the "check your e-mail" page.
 */
export default component$(() => {
  const session = useStore<SessionState>({ status: 'unknown', user: null });
  useContextProvider(SessionContext, session);
  const loc = useLocation();
  const nav = useNavigate();

  useVisibleTask$(
    async ({ track }) => {
      const path = track(() => loc.url.pathname);
      const token = getToken();
      if (!token) {
        session.status = 'signed-out';
        session.user = null;
        // A full load: Qwik City's client navigation drops the query string of a static page.
        if (!isPublicPath(path) && !guard.redirecting) {
          guard.redirecting = true;
          location.replace(loginHref(location.pathname + location.search));
        }
        return;
      }
      if (session.status !== 'signed-in' || !session.user) {
        const me = await call('get', '/v1/auth/me');
        if (!me.ok) {
          // A 401 has already sent the browser to the login page.
          if (me.status !== 401) session.status = 'signed-out';
          return;
        }
        session.user = me.data.user;
        session.status = 'signed-in';
      }
      if (session.user && !session.user.verified && !isPublicPath(path)) await nav('/register');
    },
    { strategy: 'document-ready' },
  );

  const guarded = !isPublicPath(loc.url.pathname);
  const ready = !guarded || (session.status === 'signed-in' && !!session.user?.verified);
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <SiteNav />
      <RouteAnnouncer />
      <main id="main" tabIndex={-1} class="content">
        {!ready && <LoadingNotice>Checking your session…</LoadingNotice>}
        <div hidden={!ready}>
          <Slot />
        </div>
      </main>
    </div>
  );
});
