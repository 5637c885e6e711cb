import type { ArticleDto } from '../../../worker/src/features/articles/article.schema';
import type { DraftDto } from '../../../worker/src/features/articles/article-draft.schema';
import type { TagRef } from '../../../worker/src/features/tags/tags.schema';
import { type ArticleFields, changedFields } from './article-fields';
import { checkChanges, conflict, type SaveOutcome } from './article-save';
import { seoValues } from './seo-merge';
import { call } from './typed-api';

/**
 * The pending draft of an online article (`/v1/articles/:id/draft`): the
 * editor's saves of a live article go here, never to the live version, until
 * "Update" publishes it in one write; "Discard changes" drops it. The
 * draft's ETag (`"d<version>"`) is its own, apart from the article's.
 */

/** The draft's fields as the editor holds them; tag names from those already known, else asked for. */
export async function fieldsOfDraft(d: DraftDto, known: TagRef[]): Promise<ArticleFields> {
  const tags: TagRef[] = [];
  for (const id of d.tagIds) {
    const seen = known.find((t) => t.id === id);
    if (seen) tags.push(seen);
    else {
      const res = await call('get', '/v1/tags/{id}', { path: { id } });
      // A tag deleted since is left out: the draft's publish would refuse it.
      if (res.ok) tags.push({ id, name: res.data.tag.name, slug: res.data.tag.slug });
    }
  }
  return {
    title: d.title,
    body: d.body,
    format: d.format,
    siteId: d.siteId ?? '',
    authorIds: [...d.authorIds],
    tags,
    slug: d.slug,
    excerpt: d.excerpt ?? '',
    featureImageId: d.featureImageId ?? '',
    seo: seoValues(d.seo),
  };
}

/** The article's draft and its ETag; null when it has none (404). */
export async function loadDraft(
  id: string,
): Promise<{ ok: true; draft: DraftDto | null; etag: string | null } | { ok: false; message: string }> {
  const res = await call('get', '/v1/articles/{id}/draft', { path: { id }, acceptStatuses: [404] });
  if (res.ok) return { ok: true, draft: res.data.draft, etag: res.etag ?? null };
  return res.status === 404 ? { ok: true, draft: null, etag: null } : { ok: false, message: res.message };
}

/** Writes what changed since `base` into the draft (made from the live article when there is none yet). */
export async function saveDraft(
  id: string,
  base: ArticleFields,
  now: ArticleFields,
  etag: string | null,
): Promise<SaveOutcome> {
  const diff = changedFields(base, now);
  if (Object.keys(diff).length === 0) return { kind: 'unchanged' };
  const invalid = await checkChanges(diff, now);
  if (invalid) return invalid;
  const res = await call('put', '/v1/articles/{id}/draft', { path: { id }, body: diff, ifMatch: etag });
  if (res.ok)
    return { kind: 'saved', id, created: false, sent: now, article: null, etag: res.etag ?? null, draft: true };
  if (res.status === 412) return draftConflict(id, base.tags ?? []);
  const message = res.issues.length ? res.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : res.message;
  return { kind: 'failed', message, status: res.status };
}

/**
 * A 412 on the draft (another tab or person saved it meanwhile): the draft as it now stands, for the editor
 * to merge field by field; none any more (made live or discarded elsewhere): the live article.
 */
async function draftConflict(id: string, known: TagRef[]): Promise<Extract<SaveOutcome, { kind: 'conflict' }>> {
  const pending = await loadDraft(id);
  if (pending.ok && pending.draft)
    return {
      kind: 'conflict',
      theirs: await fieldsOfDraft(pending.draft, known),
      article: null,
      etag: pending.etag,
      draft: true,
    };
  if (!pending.ok) return { kind: 'conflict', theirs: null, article: null, etag: null };
  return { ...(await conflict(id)), draft: false };
}

/** "Update": the draft becomes the live article in one write. */
export async function publishDraft(
  id: string,
  etag: string | null,
): Promise<{ ok: true; article: ArticleDto | null; etag: string | null } | { ok: false; message: string }> {
  const res = await call('post', '/v1/articles/{id}/draft/publish', { path: { id }, ifMatch: etag });
  if (!res.ok) return { ok: false, message: res.message };
  return { ok: true, article: res.data?.article ?? null, etag: res.etag ?? null };
}

/** "Discard changes": the draft is dropped; the live article stays as it is. */
export async function discardDraft(
  id: string,
  etag: string | null,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const res = await call('delete', '/v1/articles/{id}/draft', { path: { id }, ifMatch: etag });
  return res.ok ? { ok: true } : { ok: false, message: res.message };
}
