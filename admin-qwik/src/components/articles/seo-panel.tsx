import { $, component$, type QRL, type Signal, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { loadArticle } from '../../lib/article-save';
import { imagePath } from '../../lib/image-path';
import { SEO_LIMITS, type SeoDto, seoFromFormValues } from '../../lib/seo-form';
import { mergeSeo, type SeoValues, seoValues, takeSeo } from '../../lib/seo-merge';
import { call, type Issue } from '../../lib/typed-api';
import { LoadingNotice } from '../status/loading-notice';
import { FormError, Status } from '../ui/form-error';
import { SeoConflict, type SeoConflictState } from './seo-conflict';
import { CharCount, type Draft, SerpPreview } from './seo-preview';

type SeoField = 'metaTitle' | 'metaDescription' | 'canonicalUrl' | 'ogImage';
/**
 * The SEO panel of the editor: GET / PUT /v1/articles/:id/seo, checked with
 * the API's schema, with a search-result preview; a stale save (412) is
 * merged, and fields both sides changed are put to the editor (seo-conflict.tsx).
 */
export const SeoPanel = component$(
  (props: {
    articleId: string;
    title: string;
    images: ImageDto[];
    /** The article's version as the editor knows it: sent as If-Match, and moved on by this panel's own saves. */
    etag?: Signal<string | null>;
    /** A 412: the article as it now stands, for the editor to merge its own fields (and move `etag` on). */
    onStale$?: QRL<(article: ArticleDto, etag: string | null) => unknown>;
  }) => {
    const seo = useSignal<SeoDto | null>(null);
    const unavailable = useSignal<string | null>(null);
    const issues = useSignal<Issue[]>([]);
    const error = useSignal<string | null>(null);
    const status = useSignal<string | null>(null);
    const draft = useSignal<Draft>({ metaTitle: '', metaDescription: '', canonicalUrl: '' });
    /** The values as the server had them when loaded or last saved: what a 412 is merged against. */
    const base = useSignal<SeoValues | null>(null);
    const conflict = useSignal<SeoConflictState | null>(null);

    /** Puts values into the (uncontrolled) form, and its counts and preview. */
    const fillForm = $((v: SeoValues) => {
      for (const name of ['metaTitle', 'metaDescription', 'canonicalUrl', 'ogImage'] as const) {
        const el = document.getElementById(`seo-${name}`) as HTMLInputElement | HTMLTextAreaElement | null;
        if (el) el.value = v[name];
      }
      const box = document.getElementById('seo-noindex') as HTMLInputElement | null;
      if (box) box.checked = v.noindex;
      draft.value = { metaTitle: v.metaTitle, metaDescription: v.metaDescription, canonicalUrl: v.canonicalUrl };
    });

    /**
     * PUTs the form with If-Match. On a 412 the article is read again: the editor merges its own fields
     * (onStale$), and this panel merges the SEO fields against `base` (lib/seo-merge.ts): what only the
     * other side changed comes into the form and the save is sent again; fields both changed are shown.
     */
    const send = $(async (form: HTMLFormElement, merging = false): Promise<void> => {
      // The last save's "saved" would otherwise stand while this one is still being checked and sent.
      status.value = null;
      // A few rounds at most: each 412 reads the article again and merges (someone may be saving on and on).
      // The API's schema, loaded on the first save (it brings zod, which the route does not fetch up front).
      const { seoFromForm } = await import('../../lib/seo');
      for (let round = 0; round < 3; round++) {
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
        if (res.ok) {
          if (props.etag && res.etag) props.etag.value = res.etag;
          issues.value = [];
          // 204: saved, but this account may not read the article as it now stands.
          if (res.data) seo.value = res.data.seo;
          base.value = seoValues(res.data?.seo ?? checked.body);
          status.value =
            merging || round ? 'SEO settings merged with changes saved meanwhile, and saved.' : 'SEO settings saved.';
          return;
        }
        issues.value = res.issues;
        if (res.status !== 412) {
          error.value = res.message;
          return;
        }
        const current = await loadArticle(props.articleId);
        if (!current.ok) {
          error.value =
            'Someone else saved this article meanwhile, and it could not be read again. Your SEO settings are kept here.';
          return;
        }
        if (props.onStale$) await props.onStale$(current.article, current.etag);
        else if (props.etag) props.etag.value = current.etag;
        const theirs = seoValues(current.article.seo);
        const { merged, conflicts } = mergeSeo(base.value ?? theirs, seoValues(checked.body), theirs);
        base.value = theirs;
        await fillForm(merged);
        if (conflicts.length) {
          conflict.value = { theirs, mine: merged, fields: conflicts };
          return;
        }
      }
      error.value = 'The article keeps changing on the server. Your SEO settings are kept here: save again.';
    });

    /** The choice on a conflict: keep this panel's version of the contested fields, or take theirs; then save. */
    const resolve = $(async (keepMine: boolean) => {
      const c = conflict.value;
      const form = document.getElementById('seo-form') as HTMLFormElement | null;
      if (!c || !form) return;
      const now = seoValues(seoFromFormValues(form));
      if (!keepMine) await fillForm(takeSeo(now, c.theirs, c.fields));
      conflict.value = null;
      error.value = null;
      await send(form, true);
    });

    useVisibleTask$(
      async ({ track }) => {
        const id = track(() => props.articleId);
        const res = await call('get', '/v1/articles/{id}/seo', { path: { id } });
        if (!res.ok) {
          unavailable.value = res.status === 404 ? 'SEO settings are not available on this server yet.' : res.message;
          return;
        }
        seo.value = res.data.seo;
        base.value = seoValues(res.data.seo);
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
            id="seo-form"
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
              // While both versions are on screen nothing is sent: the editor chooses first.
              if (conflict.value) return;
              await send(form);
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
            {conflict.value && (
              <SeoConflict
                conflict={conflict.value}
                onKeepMine$={() => resolve(true)}
                onTakeTheirs$={() => resolve(false)}
              />
            )}
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
