import { $, component$, type QRL, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { focusWhenShown } from '../../lib/focus-when-shown';

interface ConfirmButtonProps {
  /** The action, e.g. "Delete". */
  label: string;
  /** The question asked before doing it. */
  question: string;
  /** The button that does it, e.g. "Yes, delete". */
  confirmLabel: string;
  onConfirm$: QRL<() => unknown>;
  danger?: boolean;
  disabled?: boolean;
  /** The id of the text that says why the action is disabled (or what it does). */
  describedBy?: string;
}

/** A two-step action: the first press asks, the second does it. Focus moves to the answer; Escape or Cancel goes back. */
export const ConfirmButton = component$((props: ConfirmButtonProps) => {
  const armed = useSignal(false);
  const yes = useSignal<HTMLButtonElement>();
  const trigger = useSignal<HTMLButtonElement>();
  const busy = useSignal(false);

  // 'document-ready', not the default 'intersection-observer': the qwikloader observed the prerendered
  // button while it was below the fold (the editor's Publish on a phone), and in some client navigations
  // away it reported the button visible after it had been removed; dispatching to the detached element
  // threw inside the loader ("Cannot read properties of null (reading 'getAttribute')": it looks up the
  // element's container). The admin-editor-drafts Back test saw it in about half of its runs.
  // The answer is rendered by the change that runs this task, possibly only in Qwik's next pass
  // (lib/focus-when-shown.ts), so the focus waits for it.
  useVisibleTask$(
    ({ track, cleanup }) => {
      if (track(() => armed.value)) cleanup(focusWhenShown(() => yes.value));
    },
    { strategy: 'document-ready' },
  );

  const cancel = $(() => {
    armed.value = false;
    setTimeout(() => trigger.value?.focus(), 0);
  });

  return (
    <span class="confirm">
      {!armed.value ? (
        <button
          ref={trigger}
          type="button"
          class={['button', props.danger && 'button-danger']}
          disabled={props.disabled || busy.value}
          aria-describedby={props.describedBy}
          onClick$={() => (armed.value = true)}
        >
          {props.label}
        </button>
      ) : (
        // biome-ignore lint/a11y/useSemanticElements: inline, inside a row of buttons, where a fieldset (a block with a border and a legend) does not fit
        <span
          class="confirm-ask"
          role="group"
          aria-label={props.question}
          onKeyDown$={(e) => {
            if (e.key === 'Escape') void cancel();
          }}
        >
          <span>{props.question}</span>
          <button
            ref={yes}
            type="button"
            class={['button', props.danger && 'button-danger']}
            disabled={busy.value}
            onClick$={async () => {
              busy.value = true;
              try {
                await props.onConfirm$();
              } finally {
                busy.value = false;
                armed.value = false;
              }
            }}
          >
            {props.confirmLabel}
          </button>
          <button type="button" class="button button-quiet" onClick$={cancel}>
            Cancel
          </button>
        </span>
      )}
    </span>
  );
});
