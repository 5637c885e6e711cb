import { notFound } from '../../core/domain/errors.js';
import { constantTimeEqual, newSecretCode, sha256Hex } from '../../core/shared/crypto.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { LinkBase } from '../../wire/links.js';
import type { ArticleDto } from '../articles/article.schema.js';
import type { PreviewPageContent } from './preview-page.js';
import type { PreviewLinkDto } from './previews.schema.js';

export interface PreviewsDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  publicUrl: string;
  /** The article as a read answers it, whatever its status (ArticlesService.read). */
  readArticle(id: string, links: LinkBase): Promise<ArticleDto>;
  /** What its page shows: the pending draft when there is one (the articles' Drafts.preview). */
  pageOf(article: ArticleDto, links: LinkBase): Promise<PreviewPageContent>;
}

/**
 * Preview links (docs/api.md#previews): a token of 256 random bits in the
 * URL, of which only the SHA-256 is stored. A link is found by its hash and
 * the hashes compared again in constant time; a copy of the database holds
 * no usable link.
 */
export function createPreviewsService(deps: PreviewsDeps) {
  const { repos, clock, ids } = deps;

  /** The article the link shows, online or not; 404 for an unknown, revoked or expired link. */
  async function read(token: string, links: LinkBase): Promise<ArticleDto> {
    const hash = await sha256Hex(token);
    const found = await repos.previewTokens.findByHash(hash);
    if (!found || !constantTimeEqual(found.tokenHash, hash)) throw notFound();
    if (found.expiresAt.getTime() <= clock.now().getTime()) throw notFound();
    return deps.readArticle(found.articleId, links);
  }

  return {
    async create(articleId: string, expiresInSeconds: number): Promise<PreviewLinkDto> {
      const { siteId } = await deps.readArticle(articleId, { origin: '', widths: [] });
      const site = siteId === null ? null : await repos.sites.findById(siteId);
      const token = newSecretCode();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000);
      await repos.previewTokens.create({
        id: ids.newId(),
        articleId,
        tokenHash: await sha256Hex(token),
        expiresAt,
        createdAt: now,
      });
      // A site with its own preview page gets links to it; the token is base64url, so it needs no escaping.
      const url = site?.previewUrl
        ? site.previewUrl.replace('{token}', token)
        : `${deps.publicUrl}/v1/preview/${token}`;
      return { url, expiresAt: expiresAt.toISOString() };
    },

    /** What the link's page shows: the article's pending draft when there is one; 404 as for `read`. */
    async page(token: string, links: LinkBase): Promise<PreviewPageContent> {
      return deps.pageOf(await read(token, links), links);
    },

    read,

    /** Every link of the article stops working; 404 for an unknown article. */
    async revokeAll(articleId: string): Promise<void> {
      // Only whether it exists matters here: no links are made.
      await deps.readArticle(articleId, { origin: '', widths: [] });
      await repos.previewTokens.revokeAll(articleId);
    },

    /** The scheduled clean-up: expired links, a bounded number per run. */
    async prune(now: Date): Promise<{ pruned: number }> {
      return { pruned: await repos.previewTokens.pruneExpired(now, 500) };
    },
  };
}

export type PreviewsService = ReturnType<typeof createPreviewsService>;
