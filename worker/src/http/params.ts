import { notFound } from '../core/domain/errors.js';
import { IdParamSchema } from '../wire/common.schema.js';

/** A malformed id names nothing: the same uniform 404 as an unknown one. */
export function idParam(raw: string | undefined): string {
  const parsed = IdParamSchema.safeParse(raw);
  if (!parsed.success) throw notFound();
  return parsed.data;
}
