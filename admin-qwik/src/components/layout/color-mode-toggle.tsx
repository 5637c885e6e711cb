import { component$ } from '@builder.io/qwik';
import { cycleColorMode } from '../../lib/color-mode';
import { IconMoon, IconSun, IconSystem } from '../icons/icons';

/**
 * One button cycling system → light → dark. The label is chosen by CSS from
 * <html data-color-mode>, which color-mode.js sets before first paint, so the
 * static HTML never shows the wrong state and no JavaScript runs until a click.
 * Hidden labels are display:none, so the accessible name follows too.
 */
export const ColorModeToggle = component$(() => {
  return (
    <button type="button" class="color-mode-toggle" onClick$={() => cycleColorMode()} title="Switch colour mode">
      <span class="cm-label cm-system">
        <IconSystem />
        <span class="visually-hidden">Colour mode: </span>System
      </span>
      <span class="cm-label cm-light">
        <IconSun />
        <span class="visually-hidden">Colour mode: </span>Light
      </span>
      <span class="cm-label cm-dark">
        <IconMoon />
        <span class="visually-hidden">Colour mode: </span>Dark
      </span>
    </button>
  );
});
