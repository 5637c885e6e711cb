import { notFound } from '../core/domain/errors.js';
import { IdSchema } from '../features/articles/article.schema.js';

/** A malformed id names nothing: the same uniform 404 as an unknown one. */
export function idParam(raw: string): string {
  if (!IdSchema.safeParse(raw).success) throw notFound();
  return raw.toLowerCase();
}
