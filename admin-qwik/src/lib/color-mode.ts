/**
 * Bridge to public/color-mode.js, which owns the colour mode: it runs before
 * first paint (Qwik code cannot) and exposes `window.cmsColorMode`.
 */
export type ColorMode = 'light' | 'dark' | 'system';

interface ColorModeApi {
  modes: ColorMode[];
  get(): ColorMode;
  set(mode: ColorMode): void;
}

declare global {
  interface Window {
    cmsColorMode?: ColorModeApi;
  }
}

const ORDER: readonly ColorMode[] = ['system', 'light', 'dark'];

/** The mode after `mode` in the toggle's cycle: system → light → dark → system. */
export function nextColorMode(mode: ColorMode): ColorMode {
  return ORDER[(ORDER.indexOf(mode) + 1) % ORDER.length] ?? 'system';
}

/** Advances the colour mode; a no-op if color-mode.js did not load. */
export function cycleColorMode(): void {
  const api = window.cmsColorMode;
  if (api) api.set(nextColorMode(api.get()));
}
