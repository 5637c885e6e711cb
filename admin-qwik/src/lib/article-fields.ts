import type { ArticleDto, ArticleFormat } from '../../../worker/src/features/articles/article.schema';

/** What the editor changes on an article (PATCH /v1/articles/:id), as the fields hold it. */
export interface ArticleFields {
  title: string;
  body: string;
  format: ArticleFormat;
  siteId: string;
  authorIds: string[];
}

export const EMPTY_FIELDS: ArticleFields = { title: '', body: '', format: 'markdown', siteId: '', authorIds: [] };

export function fieldsOf(a: ArticleDto): ArticleFields {
  return { title: a.title, body: a.body, format: a.format, siteId: a.siteId ?? '', authorIds: [...a.authorIds] };
}

/** The request body for what differs from `base`: only changed fields are sent, so a save never reverts another's. */
export function changedFields(
  base: ArticleFields,
  now: ArticleFields,
): Partial<Omit<ArticleFields, 'siteId'> & { siteId: string | null }> {
  const out: Partial<Omit<ArticleFields, 'siteId'> & { siteId: string | null }> = {};
  if (now.title !== base.title) out.title = now.title;
  if (now.body !== base.body) out.body = now.body;
  if (now.format !== base.format) out.format = now.format;
  if (now.siteId !== base.siteId) out.siteId = now.siteId || null;
  if (now.authorIds.join() !== base.authorIds.join()) out.authorIds = [...now.authorIds];
  return out;
}

export function sameFields(a: ArticleFields, b: ArticleFields): boolean {
  return Object.keys(changedFields(a, b)).length === 0;
}

/** Nothing typed yet: a new article's empty form is not a draft worth keeping. */
export function isBlank(f: ArticleFields): boolean {
  return sameFields(EMPTY_FIELDS, f);
}
