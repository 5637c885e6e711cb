import '../../lib/zod-csp';
import { component$, type QRL, useSignal, useTask$ } from '@builder.io/qwik';
import {
  MAX_ALT_LENGTH,
  MAX_CAPTION_LENGTH,
  UpdateImageSchema,
} from '../../../../worker/src/features/media/media.schema';
import { issueInWords } from '../../lib/field-labels';
import type { Issue } from '../../lib/result';
import { type ApiAnswer, call } from '../../lib/typed-api';
import { FormError, Status } from '../ui/form-error';

export type SavedImage = ApiAnswer<'/v1/media/{id}', 'patch'>['image'];

/**
 * An image's words: the name it is downloaded under, its alt text (what a
 * screen reader says instead of the picture) and its caption. Checked with
 * the API's own schema first; saved with PATCH /v1/media/{id}.
 */
export const ImageWords = component$(
  (props: {
    image: Pick<SavedImage, 'id' | 'originalName' | 'alt' | 'caption'>;
    onSaved$: QRL<(image: SavedImage) => void>;
  }) => {
    // What is typed stays through a failed check or save (a re-render must not reset the fields).
    const values = {
      originalName: useSignal(props.image.originalName ?? ''),
      alt: useSignal(props.image.alt),
      caption: useSignal(props.image.caption),
    };
    useTask$(({ track }) => {
      // The detail may be closing (no image any more) when this runs.
      const image = track(() => props.image as typeof props.image | undefined);
      if (!image) return;
      values.originalName.value = image.originalName ?? '';
      values.alt.value = image.alt;
      values.caption.value = image.caption;
    });
    const issues = useSignal<Issue[]>([]);
    const error = useSignal<string | null>(null);
    const saved = useSignal<string | null>(null);
    const problem = (name: string) => issues.value.find((i) => i.path === name)?.message;
    const field = (name: 'originalName' | 'alt' | 'caption') => ({
      id: `image-${name}`,
      name,
      'aria-invalid': problem(name) ? ('true' as const) : undefined,
      'aria-describedby': problem(name) ? `image-${name}-error` : `image-${name}-hint`,
    });
    return (
      <form
        class="image-words"
        aria-label="Image name and words"
        preventdefault:submit
        onSubmit$={async () => {
          const body = {
            originalName: values.originalName.value.trim() || null,
            alt: values.alt.value,
            caption: values.caption.value,
          };
          saved.value = null;
          error.value = null;
          const checked = UpdateImageSchema.safeParse(body);
          if (!checked.success) {
            issues.value = checked.error.issues.map((i) =>
              issueInWords({ path: i.path.join('.'), message: i.message }),
            );
            setTimeout(() => document.getElementById(`image-${issues.value[0]?.path}`)?.focus(), 0);
            return;
          }
          const res = await call('patch', '/v1/media/{id}', { path: { id: props.image.id }, body });
          if (!res.ok) {
            issues.value = res.issues;
            error.value = res.message;
            return;
          }
          issues.value = [];
          saved.value = 'Saved.';
          await props.onSaved$(res.data.image);
        }}
      >
        <div class="field">
          <label for="image-originalName">Name</label>
          <input {...field('originalName')} type="text" bind:value={values.originalName} maxLength={255} />
          <p class="hint" id="image-originalName-hint">
            The file name it is downloaded under.
          </p>
          {problem('originalName') && (
            <p class="field-error" id="image-originalName-error">
              {problem('originalName')}
            </p>
          )}
        </div>
        <div class="field">
          <label for="image-alt">Alt text</label>
          <input {...field('alt')} type="text" bind:value={values.alt} maxLength={MAX_ALT_LENGTH} />
          <p class="hint" id="image-alt-hint">
            What the picture shows, for people who cannot see it. Leave empty for a decorative image.
          </p>
          {problem('alt') && (
            <p class="field-error" id="image-alt-error">
              {problem('alt')}
            </p>
          )}
        </div>
        <div class="field">
          <label for="image-caption">Caption</label>
          <textarea {...field('caption')} rows={2} maxLength={MAX_CAPTION_LENGTH} bind:value={values.caption} />
          <p class="hint" id="image-caption-hint">
            Shown under the picture where a site prints captions.
          </p>
          {problem('caption') && (
            <p class="field-error" id="image-caption-error">
              {problem('caption')}
            </p>
          )}
        </div>
        <FormError message={error.value} />
        <Status message={saved.value} testId="image-words-status" />
        <button type="submit" class="button button-primary">
          Save name and words
        </button>
      </form>
    );
  },
);
