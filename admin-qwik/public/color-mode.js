/*
 * Colour mode, applied before first paint: this file is loaded by a blocking
 * <script src> in <head> (an inline script would break the CSP), so the page
 * never flashes in the wrong colours.
 *
 * <html data-color-mode="light|dark|system">  the user's choice (default system)
 * <html data-theme="light|dark">              what is shown; CSS keys off this
 *
 * window.cmsColorMode.set(mode) is what the toggle in the layout calls.
 */
(() => {
  const KEY = 'cms.colorMode';
  const MODES = ['light', 'dark', 'system'];
  const root = document.documentElement;
  const media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function stored() {
    try {
      const value = window.localStorage.getItem(KEY);
      return MODES.indexOf(value) >= 0 ? value : 'system';
    } catch {
      // Storage can be disabled (privacy settings): follow the system.
      return 'system';
    }
  }

  function apply(mode) {
    const theme = mode === 'system' ? (media?.matches ? 'dark' : 'light') : mode;
    root.setAttribute('data-color-mode', mode);
    root.setAttribute('data-theme', theme);
    root.style.colorScheme = theme;
  }

  function set(mode) {
    if (MODES.indexOf(mode) < 0) return;
    try {
      if (mode === 'system') window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, mode);
    } catch {
      // Not persisted, but still applied for this page.
    }
    apply(mode);
  }

  apply(stored());

  if (media) {
    const follow = () => {
      if (root.getAttribute('data-color-mode') === 'system') apply('system');
    };
    if (media.addEventListener) media.addEventListener('change', follow);
    else if (media.addListener) media.addListener(follow);
  }
  // Another tab changed the choice.
  window.addEventListener('storage', (event) => {
    if (event.key === KEY || event.key === null) apply(stored());
  });

  window.cmsColorMode = {
    modes: MODES.slice(),
    get: () => root.getAttribute('data-color-mode') || 'system',
    set,
  };
})();
