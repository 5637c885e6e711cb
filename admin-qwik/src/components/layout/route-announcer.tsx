import { component$, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { useLocation } from '@builder.io/qwik-city';

/** The heading of the page before; an object, as Qwik moves tasks into modules of their own. */
const last = { heading: null as Element | null, text: '' };

const mainHeading = () => document.querySelector<HTMLElement>('#main h1');

/** The new page's heading, once it has rendered (it differs from the last one), or whatever is there after `frames`. */
function whenHeading(frames: number, then: (h: HTMLElement | null) => void): void {
  const heading = mainHeading();
  const fresh = heading && (heading !== last.heading || heading.textContent !== last.text);
  if (fresh || frames <= 0) then(heading);
  else requestAnimationFrame(() => whenHeading(frames - 1, then));
}

/**
 * After a client-side navigation (not the first load), focus moves to the
 * new page's heading, so keyboard and screen reader users start reading
 * there, and a polite live region says which page this is.
 *
 * The heading can come frames later (a screen that loads first), so the
 * focus moves only if nobody moved it meanwhile: still where the move left
 * it (the link clicked) or on the body (that link went with the old page).
 * Otherwise a user who had already opened a menu or tabbed into the new page
 * lost their place; a full run of the browser tests saw it take the focus
 * from the Activity screen's export menu and from a new API key's secret.
 */
export const RouteAnnouncer = component$(() => {
  const loc = useLocation();
  const message = useSignal('');
  const first = useSignal(true);
  useVisibleTask$(
    ({ track }) => {
      track(() => loc.url.pathname);
      if (first.value) {
        first.value = false;
        last.heading = mainHeading();
        last.text = last.heading?.textContent ?? '';
        return;
      }
      const before = document.activeElement;
      whenHeading(60, (heading) => {
        last.heading = heading;
        last.text = heading?.textContent ?? '';
        const now = document.activeElement;
        const untouched = now === before || now === null || now === document.body;
        if (heading && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        if (untouched) (heading ?? document.getElementById('main'))?.focus();
        message.value = `${heading?.textContent?.trim() || document.title} page`;
      });
    },
    { strategy: 'document-ready' },
  );
  return (
    <p class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {message.value}
    </p>
  );
});
