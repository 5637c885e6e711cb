import type { Role } from '../../features/accounts/user.schema.js';
import type { ApiKeyScope } from '../../features/api-keys/api-key.schema.js';
import type { ArticleFormat, ArticleStatus } from '../../features/articles/article.schema.js';
import type { SeoDto } from '../../features/articles/seo.schema.js';

/** Domain types: what repositories return. Dates are Date objects, never strings. */

export interface User {
  id: string;
  /** Always lower case: e-mail addresses compare case-insensitively. */
  email: string;
  displayName: string | null;
  role: Role;
  verified: boolean;
  passwordHash: string;
  /** Bumped to end every session issued before (password reset, cancellation). */
  tokenVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewUser {
  id: string;
  email: string;
  displayName: string | null;
  role: Role;
  verified: boolean;
  passwordHash: string;
  createdAt: Date;
  /** sha256 (hex) of the verification code; null for accounts created verified. */
  verificationCodeHash: string | null;
  verificationExpiresAt: Date | null;
}

export interface Article {
  id: string;
  title: string;
  body: string;
  format: ArticleFormat;
  status: ArticleStatus;
  siteId: string | null;
  /** In the order the editor gave them. */
  authorIds: string[];
  createdAt: Date;
  updatedAt: Date;
  /** First publication; null while never published. */
  publishedAt: Date | null;
  seo: SeoDto;
}

export interface Image {
  id: string;
  articleId: string;
  /** `{uuid}.{ext}`, made by the server; never the client's file name. */
  filename: string;
  contentType: ImageContentType;
  bytes: number;
  width: number;
  height: number;
  /** Hex sha256 of the stored bytes. Also the ETag. */
  sha256: string;
  createdAt: Date;
}

export type ImageContentType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

export interface Invitation {
  id: string;
  /** Lower case. One pending invitation per address. */
  email: string;
  role: Role;
  /** sha256 (hex) of the code that travels only in the e-mail. */
  codeHash: string;
  expiresAt: Date;
  /** Set again on renewal. */
  createdAt: Date;
  invitedBy: string | null;
}

export interface Site {
  id: string;
  name: string;
  baseUrl: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Author {
  id: string;
  name: string;
  /** Unique across authors. */
  slug: string;
  bio: string | null;
  avatarUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

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
