/**
 * Values the platform and several features share: the database schemas
 * store them, the renderers and the image checks switch on them, and the
 * features' request schemas accept exactly these.
 */

export const ROLES = ['owner', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ARTICLE_FORMATS = ['markdown', 'html', 'plaintext'] as const;
export type ArticleFormat = (typeof ARTICLE_FORMATS)[number];

export const ARTICLE_STATUSES = ['online', 'offline'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** What a webhook endpoint may subscribe to (docs/api.md#webhooks). */
export const WEBHOOK_EVENT_TYPES = [
  'article.created',
  'article.updated',
  'article.published',
  'article.unpublished',
  'article.deleted',
  'image.uploaded',
  'image.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];
