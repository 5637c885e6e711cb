/**
 * Moves the focus to `target()` as soon as it can take it; returns how to stop trying.
 *
 * A visible task can run before Qwik has applied the render its own change asked for: a signal set
 * while a render is under way has its tasks run in that pass, but its bound attributes and newly
 * rendered elements wait for the next one. An element that is not there yet, or still hidden (the
 * editor's drawer is `visibility: hidden` until its `data-open` is set), does not take the focus, and
 * the task is not run again. Seen in the editor's phone drawer: `focus()` on "Close settings" came a
 * millisecond before the drawer's `data-open`, and the focus stayed on the toggle. So the focus is
 * tried now, then again after each change to the page until it lands. The caller stops it from its
 * task's cleanup (the state changed again, or the component went away).
 */
export function focusWhenShown(target: () => HTMLElement | null | undefined): () => void {
  const attempt = (): boolean => {
    const el = target();
    if (!el?.isConnected) return false;
    el.focus();
    return el.ownerDocument.activeElement === el;
  };
  if (attempt()) return () => {};
  // Outside a browser (the component tests' DOM) there is nothing to watch.
  if (typeof document === 'undefined' || typeof MutationObserver === 'undefined') return () => {};
  const observer = new MutationObserver(() => {
    if (attempt()) observer.disconnect();
  });
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
  return () => observer.disconnect();
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab and Shift+Tab inside `container()` (a modal dialog): from the last
 * field Tab goes to the first, and back. A plain listener, since the browser's
 * own move must be stopped while the event runs. Returns how to stop.
 */
export function trapFocus(container: () => HTMLElement | null | undefined): () => void {
  const onKey = (e: KeyboardEvent) => {
    const box = container();
    if (e.key !== 'Tab' || !box) return;
    const items = Array.from(box.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const inside = box.contains(document.activeElement);
    if (e.shiftKey && (document.activeElement === first || !inside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
      e.preventDefault();
      first.focus();
    }
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
