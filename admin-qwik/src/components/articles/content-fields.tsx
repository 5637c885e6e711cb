import { component$, type QRL, type Signal } from '@builder.io/qwik';
import { plainExcerpt } from '../../../../worker/src/core/content/excerpt';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { FormError } from '../ui/form-error';
import { FeatureImagePicker } from './feature-image-picker';

/** The API's excerpt limit (article.schema.ts, ExcerptInputSchema). */
const EXCERPT_MAX = 500;

/**
 * The article's slug, excerpt and feature image: what a site's frontend
 * builds URLs, lists and cards from. The editor's own fields: they travel
 * in the editor's saves with the title and the text (autosave, Save,
 * Ctrl/Cmd+S, Publish), so a save never resets one being edited and "All
 * changes saved" covers them. The slug is checked with the API's own schema
 * before it is sent; its problem, or the API's 409 for a taken one, is
 * shown here in words (`error`).
 */
export const ContentFields = component$(
  (props: {
    article: Signal<ArticleDto | null>;
    slug: Signal<string>;
    excerpt: Signal<string>;
    /** What the editor last filled the fields with: never set back from `slug` and `excerpt` (see titleShown). */
    slugShown: Signal<string>;
    excerptShown: Signal<string>;
    featureImageId: Signal<string>;
    error: Signal<string | null>;
    images: ImageDto[];
    /** A library image was linked to the article (chosen as its feature image): its images are read again. */
    onLinked$: QRL<() => Promise<void>>;
  }) => {
    const { slug, excerpt, featureImageId } = props;
    const a = props.article.value;
    if (!a) return null;
    return (
      <section class="card" aria-labelledby="content-fields-heading" data-testid="content-fields">
        <h2 id="content-fields-heading">Slug, excerpt and feature image</h2>
        <div class="stack">
          <label for="content-slug">Slug</label>
          <input
            id="content-slug"
            value={props.slugShown.value}
            aria-invalid={!!props.error.value}
            aria-errormessage={props.error.value ? 'content-slug-error' : undefined}
            onInput$={(_, el) => {
              slug.value = el.value;
            }}
            maxLength={200}
            autoComplete="off"
            spellcheck={false}
            aria-describedby="content-slug-hint"
          />
          <p class="hint" id="content-slug-hint">
            Lower-case letters, digits and hyphens; unique among the articles of its site. The site's URL of the article
            ends with it.
          </p>
          <FormError message={props.error.value} id="content-slug-error" />

          <label for="content-excerpt">Excerpt</label>
          <textarea
            id="content-excerpt"
            rows={3}
            maxLength={EXCERPT_MAX}
            value={props.excerptShown.value}
            placeholder={derivedExcerptOf(a)}
            onInput$={(_, el) => {
              excerpt.value = el.value;
            }}
            aria-describedby="content-excerpt-hint"
          />
          <p class="hint" id="content-excerpt-hint">
            {`${excerpt.value.length} of ${EXCERPT_MAX} characters. Left empty, the start of the text is used.`}
          </p>

          <FeatureImagePicker
            articleId={a.id}
            featureImageId={featureImageId}
            images={props.images}
            onLinked$={props.onLinked$}
          />
          <p class="hint">Saved with the article.</p>
        </div>
      </section>
    );
  },
);

/**
 * The excerpt the server derives when none is given, by the server's own
 * function: an answer does not say which kind it carries, so one equal to
 * this is shown as the placeholder (saving it empty derives the same text).
 */
function derivedExcerptOf(a: ArticleDto): string {
  return plainExcerpt(a.body, a.format);
}
