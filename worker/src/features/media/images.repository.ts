import { and, asc, desc, eq, getTableColumns, inArray, lt, notInArray, or, type SQLWrapper, sql } from 'drizzle-orm';
import { preparedInList } from '../../adapters/db/shared/prepared-in-list.js';
import {
  chunk,
  guarded,
  hasNul,
  invalid,
  MAX_PARAMS,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlDb, SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { statementsOf } from '../../adapters/db/shared/unit-of-work.js';
import { DomainError, notFound } from '../../core/domain/errors.js';
import type { Image, ImageListQuery, ImagesRepository, MediaListQuery } from './images.port.js';

const MAX_LIKE_PATTERN_BYTES = 50;

/**
 * The image's own columns of a row that may carry more: reads joined with
 * the links add `linkedTo`, and a caller may hand in a wider object; the
 * values are not reshaped.
 */
export const toImage = (row: Image): Image => ({
  id: row.id,
  articleId: row.articleId,
  filename: row.filename,
  contentType: row.contentType,
  bytes: row.bytes,
  width: row.width,
  height: row.height,
  sha256: row.sha256,
  createdAt: row.createdAt,
  originalName: row.originalName,
  alt: row.alt,
  caption: row.caption,
});

export function createImagesRepository(kit: SqlKit): ImagesRepository {
  const { db } = kit;
  const { images, articleImages, articles } = kit.tables;
  const byFilename = kit.prepare(
    db
      .select()
      .from(images)
      // No LIMIT: filename is unique, and a bound LIMIT makes SQLite re-prepare on every run.
      .where(eq(images.filename, sql.placeholder('filename'))),
    'images_by_filename',
  );
  // Behind every article read and list page: prepared once per list length.
  // Through the links: an article shows what it links to, wherever it was uploaded.
  const ofArticles = preparedInList(kit, 'images_in_articles', (ids) =>
    db
      .select({ ...getTableColumns(images), linkedTo: articleImages.articleId })
      .from(articleImages)
      .innerJoin(images, eq(images.id, articleImages.imageId))
      .where(inArray(articleImages.articleId, ids))
      .orderBy(asc(articleImages.articleId), asc(images.id)),
  );
  /**
   * Inserts the selected links, a link that already exists being no error.
   * The select's NOT IN is read at the statement's start: two merges of the
   * same duplicate (two purges on two instances) both see the survivor
   * unlinked, and the second insert would hit `article_images_pk`.
   */
  type LinkInsert = ReturnType<typeof linkInsert>;
  const linkInsert = (tx: SqlDb) => tx.insert(articleImages);
  function ignoringExisting(
    tx: SqlDb,
    select: (into: LinkInsert) => PromiseLike<unknown> & { onConflictDoNothing(): PromiseLike<unknown> },
  ): PromiseLike<unknown> {
    // MySQL has no ON CONFLICT DO NOTHING, and its ON DUPLICATE KEY cannot
    // name a column of a table the SELECT also reads. IGNORE also lets a
    // link to an article deleted meanwhile fall away, which is what that
    // delete wants anyway; the rows copied are already valid links.
    if (kit.dialect === 'mysql') return select((linkInsert(tx) as unknown as { ignore(): LinkInsert }).ignore());
    return select(linkInsert(tx)).onConflictDoNothing();
  }
  const linkedTo = (articleId: string) =>
    db.select({ id: articleImages.imageId }).from(articleImages).where(eq(articleImages.articleId, articleId));

  const repo: ImagesRepository = {
    async create(image, also = []) {
      const id = requireId(image.id, 'id');
      const articleId = normalizeId(image.articleId);
      if (articleId === null) throw notFound();
      refuseNul({ filename: image.filename, contentType: image.contentType, sha256: image.sha256 });
      try {
        // The row and its first link at once: an image is never shown by nothing.
        await kit.atomic((tx) => [
          tx.insert(images).values({ ...toImage(image), id, articleId }),
          tx.insert(articleImages).values({ articleId, imageId: id }),
          ...statementsOf(also, tx),
        ]);
      } catch (err) {
        if (kit.isForeignKeyViolation(err)) throw notFound();
        if (kit.isUniqueViolation(err))
          throw new DomainError('conflict', 'An image with this id or filename already exists');
        throw err;
      }
    },

    async findById(id) {
      const key = normalizeId(id);
      if (key === null) return null;
      const [row] = await db.select().from(images).where(eq(images.id, key)).limit(1);
      return row ? toImage(row) : null;
    },

    async findByFilename(filename) {
      if (typeof filename !== 'string' || hasNul(filename)) return null;
      const [row] = await byFilename({ filename });
      // MySQL compares ignoring trailing spaces; the other databases do not.
      return row && row.filename === filename ? toImage(row) : null;
    },

    async findByFilenames(filenames) {
      const names = [...new Set(filenames.filter((f) => typeof f === 'string' && !hasNul(f)))];
      const out: Image[] = [];
      for (const part of chunk(names, MAX_PARAMS)) {
        const rows = await db.select().from(images).where(inArray(images.filename, part));
        // MySQL compares ignoring trailing spaces; the other databases do not.
        for (const row of rows) if (part.includes(row.filename)) out.push(toImage(row));
      }
      return out;
    },

    async listByArticle(articleId, query: ImageListQuery) {
      const limit = requireLimit(query.limit);
      const key = normalizeId(articleId);
      if (key === null) return [];
      const before = query.beforeId === undefined ? undefined : lt(images.id, requireId(query.beforeId, 'cursor'));
      const rows = await db
        .select()
        .from(images)
        .where(and(inArray(images.id, linkedTo(key)), before))
        .orderBy(desc(images.id))
        .limit(limit);
      return rows.map(toImage);
    },

    async listForArticles(articleIds) {
      const keys = [...new Set(articleIds.map(normalizeId).filter((k): k is string => k !== null))];
      const map = new Map<string, Image[]>(articleIds.map((id) => [id, []]));
      const original = new Map(articleIds.map((id) => [normalizeId(id), id]));
      for (const part of chunk(keys, MAX_PARAMS)) {
        const rows = await ofArticles(part);
        for (const row of rows) map.get(original.get(row.linkedTo) ?? row.linkedTo)?.push(toImage(row));
      }
      return map;
    },

    async list(query: MediaListQuery) {
      const limit = requireLimit(query.limit);
      const filters = [];
      if (query.beforeId !== undefined) filters.push(lt(images.id, requireId(query.beforeId, 'cursor')));
      if (query.articleId !== undefined) {
        const articleId = normalizeId(query.articleId);
        if (articleId === null) return [];
        // The images the article shows (its links), as the article DTO lists them.
        filters.push(inArray(images.id, linkedTo(articleId)));
      }
      if (query.textContains !== undefined && query.textContains !== '') {
        refuseNul({ q: query.textContains });
        // Compared in lower case (PostgreSQL's LIKE minds case); `!` escapes
        // the user's `%`, `_` and `!` (one escape character every dialect reads the same way).
        const pattern = `%${query.textContains.toLowerCase().replace(/[!%_]/g, (ch) => `!${ch}`)}%`;
        // D1 refuses LIKE patterns over 50 bytes; the same limit everywhere.
        if (new TextEncoder().encode(pattern).length > MAX_LIKE_PATTERN_BYTES) {
          throw invalid('q', `q is too long (at most ${MAX_LIKE_PATTERN_BYTES - 2} bytes, wildcards counting twice)`);
        }
        const like = (column: SQLWrapper) => sql`lower(${column}) LIKE ${pattern} ESCAPE '!'`;
        filters.push(or(like(images.filename), like(images.originalName), like(images.alt), like(images.caption)));
      }
      const rows = await db
        .select()
        .from(images)
        .where(and(...filters))
        .orderBy(desc(images.id))
        .limit(limit);
      return rows.map(toImage);
    },

    async update(id, patch) {
      const key = normalizeId(id);
      if (key === null) return null;
      refuseNul({ originalName: patch.originalName ?? undefined, alt: patch.alt, caption: patch.caption });
      const set = {
        ...(patch.originalName !== undefined && { originalName: patch.originalName }),
        ...(patch.alt !== undefined && { alt: patch.alt }),
        ...(patch.caption !== undefined && { caption: patch.caption }),
      };
      if (Object.keys(set).length > 0) await db.update(images).set(set).where(eq(images.id, key));
      return repo.findById(key);
    },

    async delete(id, also = []) {
      const key = normalizeId(id);
      if (key === null) return false;
      // The links go with the row (ON DELETE CASCADE).
      if (also.length === 0) return kit.affectedRows(await db.delete(images).where(eq(images.id, key))) > 0;
      const target = eq(images.id, key);
      // The row's lock first: the other rows are written only while the image is there to delete.
      const results = await kit.atomic((tx) => [
        tx
          .update(images)
          .set({ bytes: sql`${images.bytes}` })
          .where(target),
        ...statementsOf(also, tx, { table: images, where: target }),
        tx.delete(images).where(target),
      ]);
      return kit.affectedRows(results.at(-1)) > 0;
    },

    async mergeDuplicate(duplicateId, survivorId) {
      const dup = normalizeId(duplicateId);
      const keep = normalizeId(survivorId);
      if (dup === null || keep === null || dup === keep) return false;
      const [duplicate, survivor] = await Promise.all([repo.findById(dup), repo.findById(keep)]);
      if (!duplicate || !survivor) return false;
      const param = sql.param;
      // Filenames are `{uuid}.{ext}`: no LIKE wildcards, and unique enough
      // that replacing the text replaces exactly the links to this file,
      // with or without a `?w=…&format=…` query after it.
      const mentions = sql`${articles.body} LIKE ${`%${duplicate.filename}%`}`;
      // SEO data is JSON text: an og image naming the duplicate moves the same way.
      const seoMentions = sql`${articles.seo} LIKE ${`%${duplicate.filename}%`}`;
      const results = await kit.atomic((tx) => [
        // Every article linking the duplicate links the survivor instead.
        ignoringExisting(tx, (into) =>
          into.select(
            tx
              .select({
                articleId: articleImages.articleId,
                imageId: sql`${param(keep, articleImages.imageId)}`.as('image_id'),
              })
              .from(articleImages)
              .where(
                and(
                  eq(articleImages.imageId, dup),
                  notInArray(
                    articleImages.articleId,
                    tx
                      .select({ id: articleImages.articleId })
                      .from(articleImages)
                      .where(eq(articleImages.imageId, keep)),
                  ),
                ),
              ),
          ),
        ),
        tx
          .update(articles)
          .set({
            body: sql`replace(${articles.body}, ${duplicate.filename}, ${survivor.filename})`,
            // A changed body is a new version: a stale editor must not write the old name back.
            version: sql`${articles.version} + 1`,
          })
          .where(mentions),
        tx
          .update(articles)
          .set({
            seo: sql`replace(${articles.seo}, ${duplicate.filename}, ${survivor.filename})`,
            version: sql`${articles.version} + 1`,
          })
          .where(seoMentions),
        // The stored html is the body rendered: its links move with the body's.
        tx
          .update(articles)
          .set({ html: sql`replace(${articles.html}, ${duplicate.filename}, ${survivor.filename})` })
          .where(sql`${articles.html} LIKE ${`%${duplicate.filename}%`}`),
        tx
          .update(articles)
          .set({ featureImageId: keep, version: sql`${articles.version} + 1` })
          .where(eq(articles.featureImageId, dup)),
        // The duplicate's own links go with it (ON DELETE CASCADE).
        tx.delete(images).where(eq(images.id, dup)),
      ]);
      return kit.affectedRows(results[results.length - 1]) > 0;
    },
  };
  return guarded(kit, repo);
}
