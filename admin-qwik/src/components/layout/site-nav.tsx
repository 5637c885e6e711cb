import { component$ } from '@builder.io/qwik';
import { Link, useLocation } from '@builder.io/qwik-city';
import { SCREENS, screenFor } from '../../lib/screens';

/** The main navigation; the current screen is marked with aria-current. */
export const SiteNav = component$(() => {
  const loc = useLocation();
  const current = screenFor(loc.url.pathname);
  return (
    <nav class="site-nav" aria-label="Main">
      <ul>
        {SCREENS.map((s) => (
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
