import { plainExcerpt } from '../../../worker/src/core/content/excerpt';
import type { ArticleDto, ArticleFormat } from '../../../worker/src/features/articles/article.schema';
import type { TagRef } from '../../../worker/src/features/tags/tags.schema';
import { mergeSeo, SEO_FIELD_LABELS, type SeoField, type SeoValues, seoValues } from './seo-merge';

/** What the editor changes on an article (PATCH /v1/articles/:id), as the fields hold it. */
export interface ArticleFields {
  title: string;
  body: string;
  format: ArticleFormat;
  siteId: string;
  authorIds: string[];
  /** In order, with their names (for the picker and local drafts); sent as `tagIds`. Absent: none (older drafts). */
  tags?: TagRef[];
  /** The article's slug; absent in a new article's form (the API makes it from the title) and older drafts. */
  slug?: string;
  /** The excerpt the author wrote ('' : the server derives one from the body); absent in older drafts. */
  excerpt?: string;
  /** The feature image's id ('' : none); absent in older drafts. */
  featureImageId?: string;
  /** The SEO record as its form holds it ('' : none); absent in a new article's form and older drafts. */
  seo?: SeoValues;
}

/** What a PATCH sends for the fields. */
export type ArticleFieldsBody = Partial<
  Omit<ArticleFields, 'siteId' | 'tags' | 'featureImageId'> & {
    siteId: string | null;
    tagIds: string[];
    featureImageId: string | null;
  }
>;

const tagIdsOf = (f: ArticleFields): string[] => (f.tags ?? []).map((t) => t.id);

export const EMPTY_FIELDS: ArticleFields = { title: '', body: '', format: 'markdown', siteId: '', authorIds: [] };

export function fieldsOf(a: ArticleDto): ArticleFields {
  return {
    title: a.title,
    body: a.body,
    format: a.format,
    siteId: a.siteId ?? '',
    authorIds: [...a.authorIds],
    tags: a.tags.map(({ id, name, slug }) => ({ id, name, slug })),
    slug: a.slug,
    // A derived excerpt is not the author's: the field shows it as its placeholder and keeps ''.
    excerpt: a.excerpt === plainExcerpt(a.body, a.format) ? '' : a.excerpt,
    featureImageId: a.featureImageId ?? '',
    seo: seoValues(a.seo),
  };
}

const NO_SEO = seoValues({});
const sameSeo = (a: SeoValues, b: SeoValues) =>
  (Object.keys(SEO_FIELD_LABELS) as SeoField[]).every((f) => a[f] === b[f]);

/** The request body for what differs from `base`: only changed fields are sent, so a save never reverts another's. */
export function changedFields(base: ArticleFields, now: ArticleFields): ArticleFieldsBody {
  const out: ArticleFieldsBody = {};
  if (now.title !== base.title) out.title = now.title;
  if (now.body !== base.body) out.body = now.body;
  if (now.format !== base.format) out.format = now.format;
  if (now.siteId !== base.siteId) out.siteId = now.siteId || null;
  if (now.authorIds.join() !== base.authorIds.join()) out.authorIds = [...now.authorIds];
  if (tagIdsOf(now).join() !== tagIdsOf(base).join()) out.tagIds = tagIdsOf(now);
  // Absent (a new article's form, an older draft): left as they are.
  if (now.slug !== undefined && now.slug !== (base.slug ?? '')) out.slug = now.slug;
  if (now.excerpt !== undefined && now.excerpt !== (base.excerpt ?? '')) out.excerpt = now.excerpt;
  if (now.featureImageId !== undefined && now.featureImageId !== (base.featureImageId ?? ''))
    out.featureImageId = now.featureImageId || null;
  // Whole, as the API takes it ('' clears a field).
  if (now.seo !== undefined && !sameSeo(now.seo, base.seo ?? NO_SEO)) out.seo = { ...now.seo };
  return out;
}

export function sameFields(a: ArticleFields, b: ArticleFields): boolean {
  return Object.keys(changedFields(a, b)).length === 0;
}

/** Nothing typed yet: a new article's empty form is not a draft worth keeping. */
export function isBlank(f: ArticleFields): boolean {
  return sameFields(EMPTY_FIELDS, f);
}

export type FieldName = keyof ArticleFields;
export const FIELD_LABELS: Record<FieldName, string> = {
  title: 'Title',
  body: 'Body',
  format: 'Format',
  siteId: 'Site',
  authorIds: 'Authors',
  tags: 'Tags',
  slug: 'Slug',
  excerpt: 'Excerpt',
  featureImageId: 'Feature image',
  seo: 'SEO',
};

/** What a conflict names: a field, or one field of the SEO record (merged one by one). */
export type ConflictField = Exclude<FieldName, 'seo'> | `seo.${SeoField}`;

export function conflictLabel(name: ConflictField): string {
  return name.startsWith('seo.')
    ? `SEO: ${SEO_FIELD_LABELS[name.slice(4) as SeoField]}`
    : FIELD_LABELS[name as FieldName];
}

/** `fields` with `theirs` for the named ones (the "Take theirs" choice). */
export function takeTheirs(fields: ArticleFields, theirs: ArticleFields, names: ConflictField[]): ArticleFields {
  const out = { ...fields, ...(fields.seo && { seo: { ...fields.seo } }) } as unknown as Record<string, unknown>;
  for (const name of names) {
    if (name.startsWith('seo.')) {
      const f = name.slice(4) as SeoField;
      out.seo = { ...(out.seo as SeoValues), [f]: (theirs.seo ?? NO_SEO)[f] };
    } else out[name] = theirs[name as FieldName];
  }
  return out as unknown as ArticleFields;
}

/** The request body's key for a field (tags travel as their ids). */
const bodyKey = (name: FieldName): string => (name === 'tags' ? 'tagIds' : name);

/**
 * After a 412: three-way merge of this editor's fields (`mine`, edited from
 * `base`) with the version saved meanwhile (`theirs`). A field only they
 * changed takes theirs, one only this editor changed keeps mine; a field
 * both changed differently is a conflict, left as mine for the editor to
 * decide.
 */
export function mergeFields(
  base: ArticleFields,
  mine: ArticleFields,
  theirs: ArticleFields,
): { merged: ArticleFields; conflicts: ConflictField[] } {
  const ours = changedFields(base, mine);
  const other = changedFields(base, theirs);
  const merged: ArticleFields = { ...mine, authorIds: [...mine.authorIds], ...(mine.tags && { tags: [...mine.tags] }) };
  const conflicts: ConflictField[] = [];
  for (const name of Object.keys(FIELD_LABELS) as FieldName[]) {
    const mineChanged = bodyKey(name) in ours;
    const theirsChanged = bodyKey(name) in other;
    if (name === 'seo') {
      // Field by field, as the SEO panel's own saves were merged.
      if (!theirsChanged) continue;
      if (!mineChanged) merged.seo = theirs.seo;
      else {
        const seo = mergeSeo(base.seo ?? NO_SEO, mine.seo ?? NO_SEO, theirs.seo ?? NO_SEO);
        merged.seo = seo.merged;
        conflicts.push(...seo.conflicts.map((f) => `seo.${f}` as const));
      }
    } else if (theirsChanged && !mineChanged) (merged as unknown as Record<FieldName, unknown>)[name] = theirs[name];
    else if (theirsChanged && mineChanged && bodyKey(name) in changedFields(theirs, mine)) conflicts.push(name);
  }
  return { merged, conflicts };
}
