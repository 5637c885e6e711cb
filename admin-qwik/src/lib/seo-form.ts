import type { SeoDto } from '../../../worker/src/features/articles/seo.schema';
import type { ApiBody } from './api-types';

export type { SeoDto };

export const SEO_LIMITS = { metaTitle: 200, metaDescription: 500, canonicalUrl: 2048, ogImage: 2048 } as const;

/**
 * The SEO form's values as a PUT body would carry them, unchecked. Apart from
 * lib/seo.ts (the API's schema, zod) so that the SEO panel can draw and merge
 * without loading zod: the check is imported when a save needs it.
 */
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
