import { component$, useContext } from '@builder.io/qwik';
import { Link, useLocation } from '@builder.io/qwik-city';
import { SCREENS, screenFor } from '../../lib/screens';
import { SessionContext } from '../../lib/session';

/** The main navigation, for signed-in users; owner-only screens only for the owner. */
export const SiteNav = component$(() => {
  const loc = useLocation();
  const session = useContext(SessionContext);
  const current = screenFor(loc.url.pathname);
  if (session.status !== 'signed-in' || !session.user?.verified) return null;
  const role = session.user.role;
  return (
    <nav class="site-nav" aria-label="Main">
      <ul>
        {SCREENS.filter((s) => !s.ownerOnly || role === 'owner').map((s) => (
          <li key={s.href}>
            <Link href={s.href} aria-current={current === s ? 'page' : undefined}>
              <s.icon />
              <span>{s.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
});
