import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { createOrderedLinks } from '../../adapters/db/shared/ordered-links.js';
import {
  guarded,
  normalizeId,
  refuseNul,
  refuseOversizedRow,
  requireId,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlDb, SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { type Guard, statementsOf } from '../../adapters/db/shared/unit-of-work.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Rows } from '../../ports/unit-of-work.js';
import { createArticleTagLinks } from '../tags/index.js';
import { createArticleDelete } from './article-delete.repository.js';
import { createHtmlFill, storableHtml } from './article-html.repository.js';
import { createArticleListRead } from './article-list.repository.js';
import { createArticleReads } from './article-reads.repository.js';
import { scopeOf, seoText } from './article-row.repository.js';
import {
  type Article,
  type ArticleListQuery,
  type ArticlePatch,
  type ArticlesRepository,
  type IfVersion,
  StaleArticle,
} from './articles.port.js';

export function createArticlesRepository(kit: SqlKit): ArticlesRepository {
  const { db } = kit;
  const { articles, articleAuthors, authors, sites } = kit.tables;
  const reads = createArticleReads(kit);
  const tagLinks = createArticleTagLinks(kit);
  const authorLinks = createOrderedLinks(kit, {
    table: articleAuthors,
    field: 'authorId',
    targetId: authors.id,
    input: 'authorIds',
    noun: 'author',
  });

  const { listRows, countRows } = createArticleListRead(kit, tagLinks.carrying);

  /** After a foreign-key failure: name what was missing, so the client can fix it. */
  async function missingReferences(
    siteId: string | null | undefined,
    authorIds: string[] | undefined,
    tagIds?: string[],
  ) {
    const issues: { path: string; message: string }[] = [];
    if (siteId) {
      const found = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId)).limit(1);
      if (found.length === 0) issues.push({ path: 'siteId', message: `site ${siteId} does not exist` });
    }
    issues.push(...(await authorLinks.missing(authorIds)));
    issues.push(...(await tagLinks.missing(tagIds)));
    const message = issues.map((i) => i.message).join('; ') || 'a referenced site, author or tag does not exist';
    return new DomainError('invalid_request', message, issues);
  }

  /** After a unique violation: the slug's, when another article holds it in this scope. */
  async function slugTaken(scope: string, slug: string, self: string): Promise<DomainError | null> {
    const rows = await db
      .select({ id: articles.id })
      .from(articles)
      .where(and(eq(articles.slugScope, scope), eq(articles.slug, slug), ne(articles.id, self)))
      .limit(1);
    if (rows.length === 0) return null;
    const message = `slug ${slug} is already used by another article${scope === '' ? ' without a site' : ' of this site'}`;
    return new DomainError('conflict', message, [{ path: 'slug', message }]);
  }

  async function exists(id: string): Promise<boolean> {
    return (await db.select({ id: articles.id }).from(articles).where(eq(articles.id, id)).limit(1)).length > 0;
  }

  /** Where a write applies: the article, and while `ifVersion` is given, only at one of those versions. */
  const target = (key: string, ifVersion: IfVersion): SQL | undefined =>
    ifVersion === undefined
      ? eq(articles.id, key)
      : and(eq(articles.id, key), inArray(articles.version, [...ifVersion]));

  /**
   * The first statement of a conditional write of several statements: an
   * update that changes nothing takes the article's row lock (PostgreSQL,
   * MySQL; SQLite and D1 run a batch alone anyway), so the version every
   * later statement checks cannot change before the write ends.
   */
  const lockRow = (tx: SqlDb, key: string) =>
    tx
      .update(articles)
      .set({ version: sql`${articles.version}` })
      .where(eq(articles.id, key));

  /**
   * Other features' rows, guarded by the write's own target: placed after
   * the row lock and before the write, they see the row the write will see.
   */
  const alongside = (tx: SqlDb, where: SQL | undefined, also: readonly Rows[]) =>
    statementsOf(also, tx, { table: articles, where } satisfies Guard);

  /** A write that matched no row: unknown (null), or known at another version (StaleArticle). */
  async function missedWrite(key: string, ifVersion: IfVersion): Promise<null> {
    const current = ifVersion === undefined ? null : await findById(key);
    if (current) throw new StaleArticle(current);
    return null;
  }

  const findForRead = reads.findForRead;

  async function findById(id: string): Promise<Article | null> {
    return (await findForRead(id))?.article ?? null;
  }

  const repo: ArticlesRepository = {
    findById,
    findForRead,

    async create(article, also = []) {
      const id = requireId(article.id, 'id');
      const siteId = article.siteId === null ? null : requireId(article.siteId, 'siteId');
      const authorIds = authorLinks.idsOf(article.authorIds) ?? [];
      const tagIds = tagLinks.idsOf(article.tagIds) ?? [];
      const featureImageId =
        article.featureImageId === null ? null : requireId(article.featureImageId, 'featureImageId');
      refuseNul({ title: article.title, body: article.body, excerpt: article.excerpt });
      const fields = { title: article.title, body: article.body, seo: seoText(article.seo), excerpt: article.excerpt };
      refuseOversizedRow(kit, fields);
      const html = storableHtml(kit, fields, article.html);
      try {
        await kit.atomic((tx) => [
          tx.insert(articles).values({
            id,
            title: article.title,
            body: article.body,
            format: article.format,
            status: article.status,
            siteId,
            createdAt: article.createdAt,
            updatedAt: article.updatedAt,
            publishedAt: article.publishedAt,
            scheduledAt: article.scheduledAt,
            seo: seoText(article.seo),
            version: article.version,
            slug: article.slug,
            slugScope: scopeOf(siteId),
            excerpt: article.excerpt,
            html,
            featureImageId,
          }),
          ...authorLinks.writes(tx, id, authorIds, false),
          ...tagLinks.writes(tx, id, tagIds, false),
          // After the insert, unguarded: if it fails, the whole batch does.
          ...statementsOf(also, tx),
        ]);
      } catch (err) {
        if (kit.isForeignKeyViolation(err)) throw await missingReferences(siteId, authorIds, tagIds);
        if (kit.isUniqueViolation(err)) {
          throw (
            (await slugTaken(scopeOf(siteId), article.slug, id)) ??
            new DomainError('conflict', 'An article with this id already exists')
          );
        }
        throw err;
      }
    },

    async slugsStartingWith(siteId, prefix) {
      const scope = scopeOf(siteId === null ? null : requireId(siteId, 'siteId'));
      if (!/^[a-z0-9-]*$/.test(prefix)) return new Set();
      // Not LIKE: D1 refuses patterns over 50 bytes; a range would follow PostgreSQL's collation.
      const head = sql`substr(${articles.slug}, 1, ${sql.raw(String(prefix.length))})`;
      const rows = await db
        .select({ slug: articles.slug })
        .from(articles)
        .where(and(eq(articles.slugScope, scope), prefix === '' ? undefined : eq(head, prefix)));
      return new Set(rows.map((r) => r.slug));
    },

    count: countRows,
    findBySlug: reads.findBySlug,
    adjacent: reads.adjacent,

    listForRead: listRows,
    async list(query: ArticleListQuery) {
      return (await listRows(query)).map((found) => found.article);
    },

    async update(id: string, patch: ArticlePatch, now: Date, ifVersion?: IfVersion, also: readonly Rows[] = []) {
      const key = normalizeId(id);
      if (key === null) return null;
      if (ifVersion?.length === 0) return missedWrite(key, ifVersion);
      const siteId =
        patch.siteId === undefined || patch.siteId === null ? patch.siteId : requireId(patch.siteId, 'siteId');
      const authorIds = authorLinks.idsOf(patch.authorIds);
      const tagIds = tagLinks.idsOf(patch.tagIds);
      const seo = patch.seo === undefined ? undefined : seoText(patch.seo);
      const featureImageId =
        patch.featureImageId === undefined || patch.featureImageId === null
          ? patch.featureImageId
          : requireId(patch.featureImageId, 'featureImageId');
      refuseNul({ title: patch.title, body: patch.body, excerpt: patch.excerpt });
      const fields = { title: patch.title, body: patch.body, seo, excerpt: patch.excerpt };
      refuseOversizedRow(kit, fields);
      const html = patch.html === undefined ? undefined : storableHtml(kit, fields, patch.html);
      const set = {
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.body !== undefined && { body: patch.body }),
        ...(patch.format !== undefined && { format: patch.format }),
        ...(siteId !== undefined && { siteId, slugScope: scopeOf(siteId) }),
        ...(seo !== undefined && { seo }),
        ...(patch.slug !== undefined && { slug: patch.slug }),
        ...(patch.excerpt !== undefined && { excerpt: patch.excerpt }),
        ...(html !== undefined && { html }),
        ...(featureImageId !== undefined && { featureImageId }),
        updatedAt: now,
        version: sql`${articles.version} + 1`,
      };
      const where = target(key, ifVersion);
      let results: unknown[];
      try {
        // The article's own row is written last, so its result says whether the write happened.
        results = await kit.atomic((tx) => {
          // Conditional: the links change only while the article is at a named version.
          const atVersion = ifVersion === undefined ? undefined : where;
          const links = [
            ...(authorIds === undefined ? [] : authorLinks.writes(tx, key, authorIds, true, atVersion)),
            ...(tagIds === undefined ? [] : tagLinks.writes(tx, key, tagIds, true, atVersion)),
          ];
          const lock = (atVersion && links.length > 0) || also.length > 0 ? [lockRow(tx, key)] : [];
          return [...lock, ...alongside(tx, where, also), ...links, tx.update(articles).set(set).where(where)];
        });
      } catch (err) {
        if (kit.isUniqueViolation(err)) {
          const current = await findById(key);
          if (!current) return null;
          const clash = await slugTaken(
            scopeOf(siteId === undefined ? current.siteId : siteId),
            patch.slug ?? current.slug,
            key,
          );
          throw clash ?? err;
        }
        if (!kit.isForeignKeyViolation(err)) throw err;
        // The new links also fail when the article itself is gone.
        if (!(await exists(key))) return null;
        throw await missingReferences(siteId, authorIds, tagIds);
      }
      if (kit.affectedRows(results[results.length - 1]) === 0) return missedWrite(key, ifVersion);
      return findById(key);
    },

    async setStatus(id, status, now, ifVersion, also = []) {
      const key = normalizeId(id);
      if (key === null) return null;
      if (ifVersion?.length === 0) return missedWrite(key, ifVersion);
      const where = target(key, ifVersion);
      const write = (tx: SqlDb) =>
        tx
          .update(articles)
          .set({
            status,
            updatedAt: now,
            version: sql`${articles.version} + 1`,
            // Publishing or unpublishing by hand replaces any schedule.
            scheduledAt: null,
            // Only the first publication counts.
            ...(status === 'online' && {
              publishedAt: sql`coalesce(${articles.publishedAt}, ${sql.param(now, articles.publishedAt)})`,
            }),
          })
          .where(where);
      const result =
        also.length === 0
          ? await write(db)
          : (await kit.atomic((tx) => [lockRow(tx, key), ...alongside(tx, where, also), write(tx)])).at(-1);
      if (kit.affectedRows(result) === 0) return missedWrite(key, ifVersion);
      return findById(key);
    },

    delete: createArticleDelete(kit, { exists, missedWrite, target, lockRow, alongside }),
    fillHtml: createHtmlFill(kit),
  };
  return guarded(kit, repo);
}
