import { component$, type Signal, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { imagePath } from '../../lib/image-path';
import { SEO_LIMITS, type SeoDto, seoFromForm } from '../../lib/seo';
import { call, type Issue } from '../../lib/typed-api';
import { LoadingNotice } from '../status/loading-notice';
import { FormError, Status } from '../ui/form-error';

type SeoField = 'metaTitle' | 'metaDescription' | 'canonicalUrl' | 'ogImage';
interface Draft {
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
}

/*
 * What follows the typing lives in components of its own: the form itself
 * does not re-render while one types, so no field is ever reset under the cursor.
 */
const CharCount = component$(
  (props: { id: string; draft: Signal<Draft>; field: 'metaTitle' | 'metaDescription'; max: number }) => (
    <p class="hint" id={props.id}>{`${props.draft.value[props.field].length} of ${props.max} characters`}</p>
  ),
);

const SerpPreview = component$((props: { draft: Signal<Draft>; title: string }) => {
  const d = props.draft.value;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of text, not of form controls: a fieldset would say otherwise
    <div class="serp" aria-label="Search result preview" role="group" data-testid="serp">
      <span class="serp-title">{d.metaTitle.trim() || props.title}</span>
      {d.canonicalUrl.trim() && <span class="serp-url">{d.canonicalUrl.trim()}</span>}
      <span class="serp-desc">
        {d.metaDescription.trim() || 'No description: search engines pick text from the article.'}
      </span>
    </div>
  );
});

/** The SEO panel of the editor: GET / PUT /v1/articles/:id/seo, checked with the API's schema, with a search-result preview. */
export const SeoPanel = component$(
  (props: {
    articleId: string;
    title: string;
    images: ImageDto[];
    /** The article's version as the editor knows it: sent as If-Match, and moved on by this panel's own saves. */
    etag?: Signal<string | null>;
  }) => {
    const seo = useSignal<SeoDto | null>(null);
    const unavailable = useSignal<string | null>(null);
    const issues = useSignal<Issue[]>([]);
    const error = useSignal<string | null>(null);
    const status = useSignal<string | null>(null);
    const draft = useSignal<Draft>({ metaTitle: '', metaDescription: '', canonicalUrl: '' });

    useVisibleTask$(
      async ({ track }) => {
        const id = track(() => props.articleId);
        const res = await call('get', '/v1/articles/{id}/seo', { path: { id } });
        if (!res.ok) {
          unavailable.value = res.status === 404 ? 'SEO settings are not available on this server yet.' : res.message;
          return;
        }
        seo.value = res.data.seo;
        draft.value = {
          metaTitle: res.data.seo.metaTitle ?? '',
          metaDescription: res.data.seo.metaDescription ?? '',
          canonicalUrl: res.data.seo.canonicalUrl ?? '',
        };
      },
      { strategy: 'document-ready' },
    );

    const problem = (name: SeoField) => issues.value.find((i) => i.path === name)?.message;
    const described = (name: SeoField, hint?: string) =>
      [hint, problem(name) && `seo-${name}-error`].filter(Boolean).join(' ') || undefined;
    const s = seo.value;
    return (
      <section class="card" aria-labelledby="seo-heading" data-testid="seo-panel">
        <h2 id="seo-heading">SEO</h2>
        {!s && !unavailable.value && <LoadingNotice>Loading SEO settings…</LoadingNotice>}
        {unavailable.value && <p class="notice">{unavailable.value}</p>}
        {s && (
          <form
            class="stack seo-form"
            noValidate
            preventdefault:submit
            onInput$={(_, form) => {
              const data = new FormData(form);
              draft.value = {
                metaTitle: String(data.get('metaTitle') ?? ''),
                metaDescription: String(data.get('metaDescription') ?? ''),
                canonicalUrl: String(data.get('canonicalUrl') ?? ''),
              };
            }}
            onSubmit$={async (_, form) => {
              error.value = null;
              status.value = null;
              const checked = seoFromForm(form);
              if ('issues' in checked) {
                issues.value = checked.issues;
                error.value = 'Please correct the marked fields.';
                setTimeout(() => document.getElementById(`seo-${checked.issues[0]?.path}`)?.focus(), 0);
                return;
              }
              const res = await call('put', '/v1/articles/{id}/seo', {
                path: { id: props.articleId },
                body: checked.body,
                ifMatch: props.etag?.value,
              });
              if (!res.ok) {
                issues.value = res.issues;
                error.value =
                  res.status === 412
                    ? 'Someone else saved this article meanwhile: reload the page to see their version, then save again.'
                    : res.message;
                return;
              }
              if (props.etag && res.etag) props.etag.value = res.etag;
              issues.value = [];
              // 204: saved, but this account may not read the article as it now stands.
              if (res.data) seo.value = res.data.seo;
              status.value = 'SEO settings saved.';
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
                value={s.metaTitle ?? ''}
                aria-invalid={problem('metaTitle') ? true : undefined}
                aria-describedby={described('metaTitle', 'seo-metaTitle-count')}
              />
              <CharCount id="seo-metaTitle-count" draft={draft} field="metaTitle" max={SEO_LIMITS.metaTitle} />
              {problem('metaTitle') && (
                <p class="field-error" id="seo-metaTitle-error">
                  {problem('metaTitle')}
                </p>
              )}
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
                value={s.metaDescription ?? ''}
                aria-invalid={problem('metaDescription') ? true : undefined}
                aria-describedby={described('metaDescription', 'seo-metaDescription-count')}
              />
              <CharCount
                id="seo-metaDescription-count"
                draft={draft}
                field="metaDescription"
                max={SEO_LIMITS.metaDescription}
              />
              {problem('metaDescription') && (
                <p class="field-error" id="seo-metaDescription-error">
                  {problem('metaDescription')}
                </p>
              )}
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
                value={s.canonicalUrl ?? ''}
                aria-invalid={problem('canonicalUrl') ? true : undefined}
                aria-describedby={described('canonicalUrl')}
              />
              {problem('canonicalUrl') && (
                <p class="field-error" id="seo-canonicalUrl-error">
                  {problem('canonicalUrl')}
                </p>
              )}
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
                value={s.ogImage ?? ''}
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
              {problem('ogImage') && (
                <p class="field-error" id="seo-ogImage-error">
                  {problem('ogImage')}
                </p>
              )}
            </div>
            <div class="check">
              <input id="seo-noindex" name="noindex" type="checkbox" checked={s.noindex} />
              <label for="seo-noindex">Ask search engines not to index this article (noindex)</label>
            </div>
            <SerpPreview draft={draft} title={props.title} />
            <FormError message={error.value} />
            <Status message={status.value} testId="seo-status" />
            <button type="submit" class="button button-primary">
              Save SEO
            </button>
          </form>
        )}
      </section>
    );
  },
);
