/** Preview links: what the core needs from storage. Only the SHA-256 of a token is ever stored. */

export interface PreviewToken {
  id: string;
  articleId: string;
  /** Hex SHA-256 of the token. */
  tokenHash: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface PreviewTokensRepository {
  /** Unknown article → DomainError('not_found'). */
  create(token: PreviewToken): Promise<void>;
  findByHash(tokenHash: string): Promise<PreviewToken | null>;
  /** Every link of the article; returns how many went. */
  revokeAll(articleId: string): Promise<number>;
  /** Expired links, at most `limit`; returns how many went. */
  pruneExpired(now: Date, limit: number): Promise<number>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    previewTokens: PreviewTokensRepository;
  }
}
