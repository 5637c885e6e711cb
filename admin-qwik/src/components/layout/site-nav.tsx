import { component$, useContext, useSignal, useTask$ } from '@builder.io/qwik';
import { Link, useLocation } from '@builder.io/qwik-city';
import { SCREENS, screenFor } from '../../lib/screens';
import { SessionContext } from '../../lib/session';

/**
 * The main navigation, for signed-in users; owner-only screens only for the
 * owner. On narrow screens it folds behind a "Menu" button (closed at first
 * and after each navigation), so the page's own heading comes first; on
 * wide screens the list is always shown beside the content.
 *
 * Links do not prefetch (here and the header's): Qwik City matched only "/"
 * among them (the others' routes are keyed with a trailing slash), so every
 * screen fetched the dashboard's code ahead of time, about 2 KB of each first
 * visit, and none of the others'. Each screen's code loads on the click.
 */
export const SiteNav = component$(() => {
  const loc = useLocation();
  const session = useContext(SessionContext);
  const open = useSignal(false);
  const toggle = useSignal<HTMLButtonElement>();
  useTask$(({ track }) => {
    track(() => loc.url.pathname);
    open.value = false;
  });
  const current = screenFor(loc.url.pathname);
  if (session.status !== 'signed-in' || !session.user?.verified) return null;
  const role = session.user.role;
  return (
    <nav
      class="site-nav"
      aria-label="Main"
      data-open={open.value ? 'true' : 'false'}
      onKeyDown$={(e) => {
        if (e.key === 'Escape' && open.value) {
          open.value = false;
          toggle.value?.focus();
        }
      }}
    >
      <button
        ref={toggle}
        type="button"
        class="nav-toggle"
        aria-expanded={open.value ? 'true' : 'false'}
        aria-controls="main-nav-list"
        onClick$={() => (open.value = !open.value)}
      >
        <span class="nav-toggle-bars" aria-hidden="true" />
        Menu{current ? <span class="nav-toggle-current">: {current.label}</span> : null}
      </button>
      <ul id="main-nav-list">
        {SCREENS.filter((s) => !s.ownerOnly || role === 'owner').map((s) => (
          <li key={s.href}>
            <Link href={s.href} prefetch={false} aria-current={current === s ? 'page' : undefined}>
              <s.icon />
              <span>{s.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
});
