import { component$, Slot } from '@builder.io/qwik';
import { IconSpinner } from '../icons/icons';

/** "Loading …" with a spinner; role=status so screen readers hear it politely. */
export const LoadingNotice = component$(() => (
  <p class="notice notice-loading" role="status">
    <IconSpinner />
    <span>
      <Slot />
    </span>
  </p>
));
