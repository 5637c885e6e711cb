import './zod-csp';
import { ArticleSlugSchema } from '../../../worker/src/wire/slug';

/**
 * The API's own article-slug rule (the shared zod schema): the slug as the API would store it, or its
 * first problem. Imported by the editor when the slug is saved (it brings zod; tools/on-demand-chunks.ts).
 */
export function checkArticleSlug(slug: string): { ok: true; slug: string } | { ok: false; message: string } {
  const checked = ArticleSlugSchema.safeParse(slug);
  if (checked.success) return { ok: true, slug: checked.data };
  return { ok: false, message: checked.error.issues[0]?.message ?? 'The slug is not valid.' };
}
