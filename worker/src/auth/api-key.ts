/**
 * What an integration key may do (docs/api.md#api-keys). A key never passes a
 * route outside its scopes, and never an owner-only or account route.
 */
export const API_KEY_SCOPES = ['content:read', 'content:write', 'media:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Keys are presented as `Bearer cms_<prefix>_<secret>`. */
export const API_KEY_PREFIX = 'cms_';

export const looksLikeApiKey = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

/** An integration key as stored (its secret's hash aside): who made it and what it may do. */
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  /** The owner who made it; null once that account is gone. */
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}
