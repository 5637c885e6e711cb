import { component$, type QRL, Slot } from '@builder.io/qwik';
import { IconAlert } from '../icons/icons';

interface ErrorNoticeProps {
  /** What went wrong, from the API helper. */
  message: string;
  /** Offered as a "Try again" button when given. */
  onRetry$?: QRL<() => void>;
}

/** A failed load: what failed (slot), why (message), and a way to retry. */
export const ErrorNotice = component$((props: ErrorNoticeProps) => (
  <div class="notice notice-error" role="alert">
    <IconAlert />
    <div>
      <p class="notice-title">
        <Slot />
      </p>
      <p>{props.message}</p>
      {props.onRetry$ && (
        <button type="button" class="button" onClick$={props.onRetry$}>
          Try again
        </button>
      )}
    </div>
  </div>
));
