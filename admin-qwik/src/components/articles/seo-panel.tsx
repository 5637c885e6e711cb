import { component$, type Signal } from '@builder.io/qwik';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { imagePath } from '../../lib/image-path';
import { SEO_LIMITS } from '../../lib/seo-form';
import type { SeoValues } from '../../lib/seo-merge';
import type { Issue } from '../../lib/typed-api';
import { seoOnPage } from './editor-state';
import { CharCount, SerpPreview } from './seo-preview';

type SeoText = 'metaTitle' | 'metaDescription' | 'canonicalUrl' | 'ogImage';

/**
 * The SEO panel of the editor, with a search-result preview. Its fields are
 * the editor's own: they travel in the editor's saves with the title and the
 * text (an online article's in its draft, live only with "Update"), a 412 is
 * merged with them field by field, and "All changes saved" covers them. The
 * API's rule is checked before a save; its problems are shown at each field.
 * The inputs are set only when the editor fills them (`shown`), never back
 * from `seo` while one types.
 */
export const SeoPanel = component$(
  (props: {
    seo: Signal<SeoValues>;
    shown: Signal<SeoValues>;
    issues: Signal<Issue[]>;
    title: string;
    images: ImageDto[];
  }) => {
    const { seo, shown } = props;
    const problem = (name: SeoText) => props.issues.value.find((i) => i.path === name)?.message;
    const described = (name: SeoText, hint?: string) =>
      [hint, problem(name) && `seo-${name}-error`].filter(Boolean).join(' ') || undefined;
    const error = (name: SeoText) =>
      problem(name) && (
        <p class="field-error" id={`seo-${name}-error`}>
          {problem(name)}
        </p>
      );
    return (
      <section class="card" aria-labelledby="seo-heading" data-testid="seo-panel">
        <h2 id="seo-heading">SEO</h2>
        <form
          id="seo-form"
          class="stack seo-form"
          noValidate
          preventdefault:submit
          onInput$={() => {
            seo.value = seoOnPage(seo.value);
          }}
        >
          <div class="field">
            <label for="seo-metaTitle">
              Meta title <span class="optional">(optional; the article title otherwise)</span>
            </label>
            <input
              id="seo-metaTitle"
              name="metaTitle"
              type="text"
              maxLength={SEO_LIMITS.metaTitle}
              value={shown.value.metaTitle}
              aria-invalid={problem('metaTitle') ? true : undefined}
              aria-describedby={described('metaTitle', 'seo-metaTitle-count')}
            />
            <CharCount id="seo-metaTitle-count" draft={seo} field="metaTitle" max={SEO_LIMITS.metaTitle} />
            {error('metaTitle')}
          </div>
          <div class="field">
            <label for="seo-metaDescription">
              Meta description <span class="optional">(optional)</span>
            </label>
            <textarea
              id="seo-metaDescription"
              name="metaDescription"
              rows={3}
              maxLength={SEO_LIMITS.metaDescription}
              value={shown.value.metaDescription}
              aria-invalid={problem('metaDescription') ? true : undefined}
              aria-describedby={described('metaDescription', 'seo-metaDescription-count')}
            />
            <CharCount
              id="seo-metaDescription-count"
              draft={seo}
              field="metaDescription"
              max={SEO_LIMITS.metaDescription}
            />
            {error('metaDescription')}
          </div>
          <div class="field">
            <label for="seo-canonicalUrl">
              Canonical URL <span class="optional">(optional)</span>
            </label>
            <input
              id="seo-canonicalUrl"
              name="canonicalUrl"
              type="url"
              inputMode="url"
              maxLength={SEO_LIMITS.canonicalUrl}
              value={shown.value.canonicalUrl}
              aria-invalid={problem('canonicalUrl') ? true : undefined}
              aria-describedby={described('canonicalUrl')}
            />
            {error('canonicalUrl')}
          </div>
          <div class="field">
            <label for="seo-ogImage">
              Social image <span class="optional">(optional)</span>
            </label>
            <input
              id="seo-ogImage"
              name="ogImage"
              type="text"
              maxLength={SEO_LIMITS.ogImage}
              value={shown.value.ogImage}
              aria-invalid={problem('ogImage') ? true : undefined}
              aria-describedby={described('ogImage', 'seo-ogImage-hint')}
            />
            {props.images.length > 0 && (
              <select
                id="seo-pick-image"
                aria-label="Use one of this article’s images as the social image"
                onChange$={(_, el) => {
                  const input = document.getElementById('seo-ogImage') as HTMLInputElement;
                  if (el.value) input.value = el.value;
                  el.value = '';
                  seo.value = seoOnPage(seo.value);
                }}
              >
                <option value="">Use one of this article’s images…</option>
                {props.images.map((img) => (
                  <option key={img.id} value={imagePath(img)}>
                    {img.filename}
                  </option>
                ))}
              </select>
            )}
            <p class="hint" id="seo-ogImage-hint">
              An http(s) URL, or one of this article’s images (/static/uploadedImages/…).
            </p>
            {error('ogImage')}
          </div>
          <div class="check">
            <input id="seo-noindex" name="noindex" type="checkbox" checked={shown.value.noindex} />
            <label for="seo-noindex">Ask search engines not to index this article (noindex)</label>
          </div>
          <SerpPreview draft={seo} title={props.title} />
          <p class="hint">Saved with the article.</p>
        </form>
      </section>
    );
  },
);
