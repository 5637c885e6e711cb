import type { ArticleDto } from '../../../worker/src/features/articles/article.schema';
import { type ArticleFields, type ArticleFieldsBody, changedFields, fieldsOf } from './article-fields';
import { call, type Issue } from './typed-api';

/** What one save came to; the editor shows each in words. */
export type SaveOutcome =
  | { kind: 'unchanged' }
  /** On the server: `article` as it now stands (null when this account may not read it), its ETag. */
  | {
      kind: 'saved';
      id: string;
      created: boolean;
      sent: ArticleFields;
      article: ArticleDto | null;
      etag: string | null;
      /** Written to the article's pending draft (an online article): `etag` is the draft's. */
      draft?: boolean;
    }
  /**
   * Not sendable yet (no valid title for a new article, a slug or an SEO field against the rule): kept in this
   * browser only; `issues` name the SEO fields (`metaTitle`, …).
   */
  | { kind: 'invalid'; message: string; field?: 'slug' | 'seo'; issues?: Issue[] }
  /**
   * 412: someone else saved first. `theirs`: their version's fields (null: it could not be read again), with
   * its ETag; `article`: the article as it stands. `draft`: a save of the draft met another draft (true) or
   * found none any more (false: made live or discarded elsewhere, `theirs` is the live article).
   */
  | { kind: 'conflict'; theirs: ArticleFields | null; article: ArticleDto | null; etag: string | null; draft?: boolean }
  /** `field`: the one field the server refused (a slug another article has). */
  | { kind: 'failed'; message: string; status: number | null; field?: 'slug' };

/** The article and its ETag as the server has them now. */
export async function loadArticle(
  id: string,
): Promise<
  { ok: true; article: ArticleDto; etag: string | null } | { ok: false; status: number | null; message: string }
> {
  const res = await call('get', '/v1/articles/{id}', { path: { id } });
  if (!res.ok) return { ok: false, status: res.status, message: res.message };
  return { ok: true, article: res.data.article, etag: res.etag ?? null };
}

const sequence = { tail: Promise.resolve() as Promise<unknown> };

/** One save at a time: autosave, Ctrl+S and Publish never race each other's If-Match. */
export function serialised<T>(work: () => Promise<T>): Promise<T> {
  const next = sequence.tail.then(work, work);
  sequence.tail = next.catch(() => undefined);
  return next;
}

/**
 * Sends what changed since `base` (the version `etag` names): creates the
 * article when there is no id yet (the title must pass the API's rule
 * first), else PATCHes only the changed fields with `If-Match`.
 */
export async function saveArticle(
  id: string | null,
  base: ArticleFields,
  now: ArticleFields,
  etag: string | null,
): Promise<SaveOutcome> {
  if (!id) {
    const { tags, slug, excerpt, featureImageId, seo, ...fields } = now;
    const invalid = await checkChanges({ title: now.title, ...(seo && { seo }) }, now);
    if (invalid) return invalid;
    const res = await call('post', '/v1/articles', {
      body: {
        ...fields,
        siteId: now.siteId || null,
        tagIds: (tags ?? []).map((t) => t.id),
        // Only what was given: an empty slug is the API's to make from the title.
        ...(slug && { slug }),
        ...(excerpt && { excerpt }),
        ...(featureImageId && { featureImageId }),
        ...(seo && { seo }),
      },
    });
    if (!res.ok) return failed(res);
    return settled(res.data.article.id, true, now, res.data.article, res.etag ?? null, true);
  }
  const diff = changedFields(base, now);
  if (Object.keys(diff).length === 0) return { kind: 'unchanged' };
  const invalid = await checkChanges(diff, now);
  if (invalid) return invalid;
  const res = await call('patch', '/v1/articles/{id}', { path: { id }, body: diff, ifMatch: etag });
  if (!res.ok && res.status === 409 && diff.slug !== undefined)
    return {
      kind: 'failed',
      message: `Another article already uses the slug “${diff.slug}”. Choose another.`,
      status: 409,
      field: 'slug',
    };
  if (!res.ok) return res.status === 412 ? conflict(id) : failed(res);
  return settled(id, false, now, res.data?.article ?? null, res.etag ?? null, etag !== null);
}

/**
 * What must pass the API's rules before a save is sent (each rule is loaded only when its field is to be
 * sent: they bring zod, lib/title.ts, slug-rule.ts, seo.ts): the title, the slug (made canonical in `diff`),
 * the SEO record. Null when all pass.
 */
export async function checkChanges(
  diff: ArticleFieldsBody,
  now: ArticleFields,
): Promise<Extract<SaveOutcome, { kind: 'invalid' }> | null> {
  if (diff.title !== undefined) {
    const problem = (await import('./title')).titleProblem(now.title);
    if (problem) return { kind: 'invalid', message: problem };
  }
  if (diff.slug !== undefined) {
    const checked = (await import('./slug-rule')).checkArticleSlug(diff.slug.trim());
    if (!checked.ok) return { kind: 'invalid', message: checked.message, field: 'slug' };
    diff.slug = checked.slug;
  }
  if (diff.seo !== undefined) {
    const issues = (await import('./seo')).seoProblems(diff.seo);
    if (issues.length)
      return { kind: 'invalid', message: `SEO: ${issues.map((i) => i.message).join('; ')}`, field: 'seo', issues };
  }
  return null;
}

/** Publish or unpublish the version `etag` names. */
export async function setOnline(
  id: string,
  online: boolean,
  etag: string | null,
): Promise<
  { kind: 'done'; article: ArticleDto | null; etag: string | null } | Exclude<SaveOutcome, { kind: 'saved' }>
> {
  const path = { id };
  const res = online
    ? await call('post', '/v1/articles/{id}/publish', { path, ifMatch: etag })
    : await call('post', '/v1/articles/{id}/unpublish', { path, ifMatch: etag });
  if (!res.ok) return res.status === 412 ? conflict(id) : failed(res);
  const article = res.data?.article ?? null;
  return { kind: 'done', article, etag: res.etag ?? (article && etag !== null ? await freshEtag(id) : null) };
}

async function settled(
  id: string,
  created: boolean,
  sent: ArticleFields,
  article: ArticleDto | null,
  etag: string | null,
  versioned: boolean,
): Promise<SaveOutcome> {
  // An answer without an ETag of its own from a server that versions: read it, so the next save names this version.
  const next = etag ?? (article && versioned ? await freshEtag(id) : null);
  return { kind: 'saved', id, created, sent, article, etag: next };
}

async function freshEtag(id: string): Promise<string | null> {
  const res = await loadArticle(id);
  return res.ok ? res.etag : null;
}

export async function conflict(id: string): Promise<Extract<SaveOutcome, { kind: 'conflict' }>> {
  const res = await loadArticle(id);
  return res.ok
    ? { kind: 'conflict', theirs: fieldsOf(res.article), article: res.article, etag: res.etag }
    : { kind: 'conflict', theirs: null, article: null, etag: null };
}

function failed(res: {
  status: number | null;
  message: string;
  issues: { path: string; message: string }[];
}): Extract<SaveOutcome, { kind: 'failed' }> {
  const message = res.issues.length ? res.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : res.message;
  return { kind: 'failed', message, status: res.status };
}
