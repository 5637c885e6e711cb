import { component$ } from '@builder.io/qwik';

/** A form's error, announced (role=alert); renders nothing without a message. */
export const FormError = component$((props: { message: string | null | undefined; id?: string }) =>
  props.message ? (
    <p class="form-error" role="alert" id={props.id}>
      {props.message}
    </p>
  ) : null,
);

/**
 * A success or progress line, announced politely. Always rendered so the live region exists before its text.
 * With an `id` it can take the focus from script (tabindex -1): after an action whose button goes away.
 */
export const Status = component$((props: { message: string | null | undefined; testId?: string; id?: string }) => (
  <p
    class="form-status"
    role="status"
    aria-live="polite"
    data-testid={props.testId}
    id={props.id}
    tabIndex={props.id ? -1 : undefined}
  >
    {props.message ?? ''}
  </p>
));
