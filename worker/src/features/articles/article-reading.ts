import type * as z from 'zod';
import type { Actor } from '../../auth/actor.js';
import { canReadOffline } from '../../auth/policy.js';
import { DomainError, notFound } from '../../core/domain/errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { LinkBase } from '../../wire/links.js';
import type { AuthorRef } from '../authors/author.schema.js';
import type { TagRef } from '../tags/tags.schema.js';
import type {
  ArticleDto,
  ArticleListItemDto,
  ArticleListItemFieldsDto,
  ListArticlesQuerySchema,
  ListField,
  ReadInclude,
} from './article.schema.js';
import { decodeArticleCursor, encodeArticleCursor } from './article-cursor.js';
import { toArticleDto, toArticleListItem } from './article-dto.js';
import type { BodyRendering } from './article-html.js';
import type { Article, ArticleListFilter, FoundArticle } from './articles.port.js';

type ListInput = z.output<typeof ListArticlesQuerySchema>;

/** A list answer: one page, the cursor after it, and how many articles match in all. */
export interface ArticleListPage {
  items: (ArticleListItemDto | ArticleListItemFieldsDto)[];
  nextCursor: string | null;
  /** The last page by number counts itself; else a count(*) over the filters' indexes (the answer is cached, docs/caching.md). */
  total: number;
}

/** The tags the reads brought with their articles, by id, as the answers' DTOs look them up. */
const refsOf = (found: readonly FoundArticle[]) =>
  new Map<string, TagRef>(found.flatMap((f) => f.tags.map((t) => [t.id, t])));

const invalid = (path: string, message: string) => new DomainError('invalid_request', message, [{ path, message }]);

/**
 * The reads of the content API: the list with its filters, totals and
 * pages, and single reads by id or by slug, each with what `include` asks
 * for. Whatever is embedded is read once for the whole answer (one read of
 * the authors of a page, never one per article).
 */
export function createArticleReading({ repos, bodies }: { repos: Repositories; bodies: BodyRendering }) {
  /** The credited authors of these articles, in one read. */
  async function authorsOf(articles: readonly Article[]): Promise<(a: Article) => AuthorRef[]> {
    const found = await repos.authors.findByIds(articles.flatMap((a) => a.authorIds));
    return (a) =>
      a.authorIds.flatMap((id) => {
        const author = found.get(id);
        return author
          ? [{ id: author.id, name: author.name, slug: author.slug, bio: author.bio, avatarUrl: author.avatarUrl }]
          : [];
      });
  }

  /** One article's answer, if the caller may read it: unknown and hidden look the same from outside (one 404). */
  async function single(
    actor: Actor,
    found: FoundArticle | null,
    links: LinkBase,
    include: readonly ReadInclude[],
  ): Promise<ArticleDto> {
    if (!found || (found.article.status === 'offline' && !canReadOffline(actor))) throw notFound();
    // Images only when it has some (its tags came with it), so an article without is one round trip.
    const article = await bodies.stored(found.article, repos.articles);
    const tags = refsOf([found]);
    // Most reads wait for nothing more, and their answer is the mapping itself, not a copy of it.
    const [images, authors, adjacent] =
      found.linksImages || include.length > 0
        ? await Promise.all([
            found.linksImages ? repos.images.listForArticles([article.id]) : undefined,
            include.includes('authors') ? authorsOf([article]) : undefined,
            include.includes('adjacent') ? repos.articles.adjacent(article) : undefined,
          ])
        : [];
    const dto = toArticleDto(article, images?.get(article.id) ?? [], tags, links);
    if (!authors && !adjacent) return dto;
    return {
      ...dto,
      ...(authors && { authors: authors(article) }),
      ...(adjacent && { next: adjacent.next, previous: adjacent.previous }),
    };
  }

  return {
    async get(actor: Actor, id: string, links: LinkBase, include: readonly ReadInclude[] = []): Promise<ArticleDto> {
      return single(actor, await repos.articles.findForRead(id), links, include);
    },

    /**
     * The article with this slug: in the site `siteId`, or without it in any
     * site. A slug several sites' readable articles share is a 400 asking
     * for `siteId`, rather than one of them picked silently.
     */
    async getBySlug(
      actor: Actor,
      slug: string,
      siteId: string | undefined,
      links: LinkBase,
      include: readonly ReadInclude[] = [],
    ): Promise<ArticleDto> {
      const readable = (await repos.articles.findBySlug(slug, siteId)).filter(
        (f) => f.article.status === 'online' || canReadOffline(actor),
      );
      if (readable.length > 1) {
        throw invalid('siteId', `slug ${slug} is used by articles of several sites: name one with siteId`);
      }
      return single(actor, readable[0] ?? null, links, include);
    },

    async list(actor: Actor, input: ListInput, links: LinkBase): Promise<ArticleListPage> {
      if (input.page !== undefined && input.cursor !== undefined) {
        throw invalid('page', 'page and cursor cannot be used together: a page number, or the cursor of the last page');
      }
      const fields = input.fields && new Set<ListField>(['id', ...input.fields]);
      const include = new Set<string>(input.include);
      // Naming html or authors in fields asks for them, as include would.
      for (const field of ['html', 'authors'] as const) if (fields?.has(field)) include.add(field);
      const filter: ArticleListFilter = {
        // The public sees online articles only, whatever it asks for.
        status: canReadOffline(actor) ? input.status : 'online',
        siteId: input.siteId,
        tags: input.tag,
        authorId: input.authorId,
        authorSlug: input.author,
        publishedAfter: input.publishedAfter,
        publishedBefore: input.publishedBefore,
        scheduled: input.scheduled,
        text: input.q,
        slug: input.slug,
      };
      const { sort, order, limit } = input;
      const withHtml = include.has('html');
      const offset = input.page === undefined ? 0 : (input.page - 1) * limit;
      const found = await repos.articles.listForRead({
        ...filter,
        sort,
        order,
        withHtml,
        limit: limit + 1,
        after: decodeArticleCursor(input.cursor, sort, order),
        offset: offset === 0 ? undefined : offset,
      });
      const rows = found.map((f) => f.article);
      // A last page found by number tells the total itself (a filtered list
      // usually fits on its first page); otherwise count: its cost grows with
      // the matches, so it runs only when the page cannot say.
      const known = input.cursor === undefined && rows.length <= limit && (rows.length > 0 || offset === 0);
      const total = known ? offset + rows.length : await repos.articles.count(filter);
      const listed = rows.slice(0, limit);
      const page = withHtml ? await Promise.all(listed.map((a) => bodies.stored(a, repos.articles))) : listed;
      // The tags came with the page's rows; one read for the page's images, one for its authors: never
      // one per article, and none that the page's own statement says would find nothing (a miss on D1,
      // tags or not, is then one statement).
      const showing = new Set(found.filter((f) => f.linksImages).map((f) => f.article.id));
      const tags = refsOf(found);
      const [images, authors] = await Promise.all([
        showing.size > 0
          ? repos.images.listForArticles(page.filter((a) => showing.has(a.id)).map((a) => a.id))
          : undefined,
        include.has('authors') ? authorsOf(page) : undefined,
      ]);
      const last = page[page.length - 1];
      const items = page.map((a) => {
        const item: ArticleListItemDto = {
          ...toArticleListItem(a, images?.get(a.id) ?? [], tags, links, withHtml),
          ...(authors && { authors: authors(a) }),
        };
        return fields ? trimmed(item, fields) : item;
      });
      return {
        items,
        nextCursor: rows.length > limit && last ? encodeArticleCursor(sort, order, last) : null,
        total,
      };
    },
  };
}

/** The item with only the fields asked for, in the item's own order. */
function trimmed(item: ArticleListItemDto, fields: ReadonlySet<ListField>): ArticleListItemFieldsDto {
  return Object.fromEntries(
    Object.entries(item).filter(([key]) => fields.has(key as ListField)),
  ) as ArticleListItemFieldsDto;
}
