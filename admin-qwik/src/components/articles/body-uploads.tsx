import { component$ } from '@builder.io/qwik';
import type { BodyUpload } from './use-body-uploads';

/** The images on their way into the text: a labelled progress bar each (use-body-uploads.ts). */
export const BodyUploads = component$((props: { items: BodyUpload[] }) => {
  if (props.items.length === 0) return null;
  return (
    <ul class="uploads" aria-label="Images uploading into the text">
      {props.items.map((it) => (
        <li key={it.token}>
          <span>
            {it.name}: {it.note}
            {it.note === 'Uploading' && ` ${it.percent}%`}
          </span>
          {!it.waiting && <progress max={100} value={it.percent} aria-label={`Uploading ${it.name}`} />}
        </li>
      ))}
    </ul>
  );
});
