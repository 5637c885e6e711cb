import { component$, type QRL } from '@builder.io/qwik';
import type { BodyUpload } from './use-body-uploads';

/**
 * The images on their way into the text: a labelled progress bar each, or, for one that got no
 * answer, a button that sends it again (use-body-uploads.ts).
 */
export const BodyUploads = component$((props: { items: BodyUpload[]; onSendAgain$: QRL<() => Promise<void>> }) => {
  if (props.items.length === 0) return null;
  return (
    <ul class="uploads" aria-label="Images uploading into the text">
      {props.items.map((it) => (
        <li key={it.token}>
          <span>
            {it.name}: {it.note}
            {it.note === 'Uploading' && ` ${it.percent}%`}
          </span>
          {it.waiting ? (
            <button type="button" aria-label={`Send ${it.name} again`} onClick$={props.onSendAgain$}>
              Send again
            </button>
          ) : (
            <progress max={100} value={it.percent} aria-label={`Uploading ${it.name}`} />
          )}
        </li>
      ))}
    </ul>
  );
});
