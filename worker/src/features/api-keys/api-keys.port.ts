import type { ApiKey } from '../../auth/api-key.js';

export type { ApiKey };

/** Integration keys: what the core needs from storage. */

export interface ApiKeysRepository {
  /** `secretHash`: SHA-256 (hex) of the whole secret; the secret itself is never stored. */
  create(key: ApiKey, secretHash: string): Promise<void>;
  /** The key holding this secret, expired or not (the caller decides); null when unknown or deleted. */
  findBySecretHash(secretHash: string): Promise<ApiKey | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<ApiKey[]>;
  /** False when unknown. The key is refused from the next request on. */
  delete(id: string): Promise<boolean>;
  /** Records a use. */
  touch(id: string, at: Date): Promise<void>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    apiKeys: ApiKeysRepository;
  }
}
