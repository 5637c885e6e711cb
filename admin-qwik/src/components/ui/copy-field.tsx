import { $, component$, useSignal } from '@builder.io/qwik';
import { IconCopy } from '../icons/icons';
import { Status } from './form-error';

/**
 * A value to copy (a secret, a link): read-only, with a Copy button that
 * falls back to selecting it where the clipboard is not allowed.
 */
export const CopyField = component$(
  (props: { id: string; label: string; value: string; primary?: boolean; statusTestId?: string }) => {
    const copied = useSignal<string | null>(null);
    const copy = $(async () => {
      try {
        await navigator.clipboard.writeText(props.value);
        copied.value = 'Copied to the clipboard.';
      } catch {
        // No clipboard permission: select it, so Ctrl+C / ⌘C takes it.
        const field = document.getElementById(props.id) as HTMLInputElement | null;
        field?.focus();
        field?.select();
        copied.value = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
      }
    });
    return (
      <>
        <div class="inline-form">
          <label for={props.id}>{props.label}</label>
          <input
            id={props.id}
            type="text"
            readOnly
            value={props.value}
            class="secret-field"
            spellcheck={false}
            autoComplete="off"
          />
          <button type="button" class={['button', props.primary && 'button-primary']} onClick$={copy}>
            <IconCopy />
            <span>Copy</span>
          </button>
        </div>
        <Status message={copied.value} testId={props.statusTestId} />
      </>
    );
  },
);
