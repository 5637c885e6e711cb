import './zod-csp';
import { SeoInputSchema } from '../../../worker/src/features/articles/seo.schema';
import type { Issue } from './result';
import type { SeoValues } from './seo-merge';

/**
 * The editor's SEO values by the API's rule: each problem named by its field (`seo-<field>` on the page).
 * The editor imports this module only when a save sends the SEO record (it brings zod; tools/on-demand-chunks.ts).
 */
export function seoProblems(values: SeoValues): Issue[] {
  const result = SeoInputSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}
