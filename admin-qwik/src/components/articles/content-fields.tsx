import { $, component$, type Signal, useSignal, useTask$ } from '@builder.io/qwik';
import { plainExcerpt } from '../../../../worker/src/core/content/excerpt';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { call } from '../../lib/typed-api';
import { FormError, Status } from '../ui/form-error';

/** The API's excerpt limit (article.schema.ts, ExcerptInputSchema). */
const EXCERPT_MAX = 500;

/**
 * The article's slug, excerpt and feature image: what a site's frontend
 * builds URLs, lists and cards from. Saved on its own with the editor's
 * If-Match, and the new version handed back to the editor (`article`,
 * `etag`), so the editor's next save is not taken for a stale one. The slug
 * is checked with the API's own schema first; a slug another article uses
 * is the API's 409, shown in words.
 */
export const ContentFields = component$(
  (props: { article: Signal<ArticleDto | null>; etag: Signal<string | null>; images: ImageDto[] }) => {
    const slug = useSignal('');
    const excerpt = useSignal('');
    const featureImageId = useSignal('');
    const error = useSignal<string | null>(null);
    const status = useSignal<string | null>(null);
    const busy = useSignal(false);

    // The fields follow the article as the server has it (a save by the editor, a conflict resolved).
    useTask$(({ track }) => {
      const a = track(() => props.article.value);
      if (!a) return;
      slug.value = a.slug;
      // A derived excerpt is shown as the placeholder, not as text the author wrote.
      excerpt.value = a.excerpt === derivedExcerptOf(a) ? '' : a.excerpt;
      featureImageId.value = a.featureImageId ?? '';
    });

    const save = $(async () => {
      const article = props.article.value;
      if (!article) return;
      error.value = null;
      status.value = null;
      // The API's rule, loaded on the first save (it brings zod, which the route does not fetch up front).
      const { checkArticleSlug } = await import('../../lib/slug-rule');
      const checked = checkArticleSlug(slug.value.trim());
      if (!checked.ok) {
        error.value = checked.message;
        document.getElementById('content-slug')?.focus();
        return;
      }
      busy.value = true;
      const res = await call('patch', '/v1/articles/{id}', {
        path: { id: article.id },
        body: { slug: checked.slug, excerpt: excerpt.value, featureImageId: featureImageId.value || null },
        ifMatch: props.etag.value,
      });
      busy.value = false;
      if (!res.ok) {
        error.value =
          res.status === 409
            ? `Another article already uses the slug “${checked.slug}”. Choose another.`
            : res.status === 412
              ? 'The article was changed elsewhere: reload it, then set these fields again.'
              : res.message;
        return;
      }
      if (res.data) props.article.value = res.data.article;
      if (res.etag) props.etag.value = res.etag;
      status.value = 'Slug, excerpt and feature image saved.';
    });

    const a = props.article.value;
    if (!a) return null;
    const chosen = props.images.find((i) => i.id === featureImageId.value);
    return (
      <section class="card" aria-labelledby="content-fields-heading" data-testid="content-fields">
        <h2 id="content-fields-heading">Slug, excerpt and feature image</h2>
        <form class="stack" noValidate preventdefault:submit onSubmit$={save}>
          <label for="content-slug">Slug</label>
          <input
            id="content-slug"
            value={slug.value}
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

          <label for="content-excerpt">Excerpt</label>
          <textarea
            id="content-excerpt"
            rows={3}
            maxLength={EXCERPT_MAX}
            value={excerpt.value}
            placeholder={derivedExcerptOf(a)}
            onInput$={(_, el) => {
              excerpt.value = el.value;
            }}
            aria-describedby="content-excerpt-hint"
          />
          <p class="hint" id="content-excerpt-hint">
            {`${excerpt.value.length} of ${EXCERPT_MAX} characters. Left empty, the start of the text is used.`}
          </p>

          <label for="content-feature-image">Feature image</label>
          <select
            id="content-feature-image"
            value={featureImageId.value}
            onChange$={(_, el) => {
              featureImageId.value = el.value;
            }}
          >
            <option value="">None</option>
            {props.images.map((img) => (
              <option key={img.id} value={img.id}>
                {img.alt ? `${img.alt} (${img.filename})` : img.filename}
              </option>
            ))}
          </select>
          {chosen && (
            <img
              class="feature-preview"
              src={chosen.url}
              srcset={chosen.srcset || undefined}
              sizes="240px"
              alt={chosen.alt}
              width={chosen.width}
              height={chosen.height}
              data-testid="feature-preview"
            />
          )}
          <button type="submit" class="button" disabled={busy.value}>
            Save slug, excerpt and image
          </button>
        </form>
        <FormError message={error.value} />
        <Status message={status.value} testId="content-fields-status" />
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
