import './zod-csp';
import { TitleSchema } from '../../../worker/src/features/articles/article.schema';

/**
 * The API's own title rule (the shared zod schema, imported as is): the first problem, or null.
 * The editor imports this module only when a check is needed (it brings zod; tools/on-demand-chunks.ts).
 */
export function titleProblem(title: string): string | null {
  const result = TitleSchema.safeParse(title);
  return result.success ? null : (result.error.issues[0]?.message ?? 'title is invalid');
}
