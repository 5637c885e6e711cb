import type { Row } from '../../adapters/db/rows.js';

/** Preview links: what the core needs from storage. Only the SHA-256 of a token is ever stored. */

/** A preview link is its row: `tokenHash` the hex SHA-256 of the token. */
export type PreviewToken = Row<'previewTokens'>;

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
