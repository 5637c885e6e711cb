import { component$, type QRL, Slot, useVisibleTask$ } from '@builder.io/qwik';
import { CopyField } from './copy-field';

/**
 * A secret shown once (an API key, a webhook's signing secret): it takes the
 * focus when it appears (screen readers read it first), can be copied, and
 * goes when the user says it is stored. The slot says where it is used.
 */
export const SecretCard = component$(
  (props: { title: string; inputId: string; value: string; onStored$: QRL<() => void> }) => {
    useVisibleTask$(() => {
      document.getElementById('secret-heading')?.focus();
    });
    return (
      <section class="card card-secret" aria-labelledby="secret-heading" data-testid="new-secret">
        <h2 id="secret-heading" tabIndex={-1}>
          {props.title}
        </h2>
        <p>
          <strong>This is the only time it is shown.</strong> <Slot />
        </p>
        <CopyField id={props.inputId} label="Secret" value={props.value} primary statusTestId="copy-status" />
        <button type="button" class="button" onClick$={props.onStored$}>
          I have stored it
        </button>
      </section>
    );
  },
);
