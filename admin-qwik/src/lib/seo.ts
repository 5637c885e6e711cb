import './zod-csp';
import { SeoInputSchema } from '../../../worker/src/features/articles/seo.schema';
import type { ApiBody } from './api-types';
import type { Issue } from './result';
import { seoFromFormValues } from './seo-form';
import type { SeoValues } from './seo-merge';

export { SEO_LIMITS, type SeoDto, seoFromFormValues } from './seo-form';

/**
 * The SEO form → the PUT body (the whole record; empty text clears a field), checked with the API's schema.
 * The editor imports this module only when it saves (it brings zod; tools/on-demand-chunks.ts).
 */
export function seoFromForm(
  form: HTMLFormElement | FormData,
): { body: ApiBody<'/v1/articles/{id}/seo', 'put'> } | { issues: Issue[] } {
  // FormData too, so the rule can be checked without a document (test/unit/admin-forms.test.ts).
  const body = seoFromFormValues(form);
  const result = SeoInputSchema.safeParse(body);
  if (result.success) return { body };
  return { issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
}

/** The editor's SEO values by the API's rule: each problem named by its field (`seo-<field>` on the page). */
export function seoProblems(values: SeoValues): Issue[] {
  const result = SeoInputSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}
