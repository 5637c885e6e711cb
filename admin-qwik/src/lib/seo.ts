import './zod-csp';
import { type SeoDto, SeoInputSchema } from '../../../worker/src/features/articles/seo.schema';
import type { ApiBody } from './api-types';
import type { Issue } from './result';

export type { SeoDto };

export const SEO_LIMITS = { metaTitle: 200, metaDescription: 500, canonicalUrl: 2048, ogImage: 2048 } as const;

/** The SEO form's values as a PUT body would carry them, unchecked. */
export function seoFromFormValues(form: HTMLFormElement | FormData): ApiBody<'/v1/articles/{id}/seo', 'put'> {
  const data = form instanceof FormData ? form : new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '');
  return {
    metaTitle: text('metaTitle'),
    metaDescription: text('metaDescription'),
    canonicalUrl: text('canonicalUrl'),
    ogImage: text('ogImage'),
    noindex: data.get('noindex') === 'on',
  };
}

/** The SEO form → the PUT body (the whole record; empty text clears a field), checked with the API's schema. */
export function seoFromForm(
  form: HTMLFormElement | FormData,
): { body: ApiBody<'/v1/articles/{id}/seo', 'put'> } | { issues: Issue[] } {
  // FormData too, so the rule can be checked without a document (test/unit/admin-forms.test.ts).
  const body = seoFromFormValues(form);
  const result = SeoInputSchema.safeParse(body);
  if (result.success) return { body };
  return { issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
}
