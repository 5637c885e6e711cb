import type { Issue } from './result';

/**
 * The API names fields by their keys ("baseUrl must be an http(s) URL");
 * people read the labels the forms show. One map for every screen: each
 * error from the API (lib/typed-api.ts) and each check the admin runs with
 * the API's own schemas goes through `inWords`.
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  action: 'Action',
  active: 'Active',
  alt: 'Alt text',
  authorIds: 'Authors',
  avatarUrl: 'Avatar address',
  baseUrl: 'Base URL',
  bio: 'Biography',
  body: 'Body',
  canonicalUrl: 'Canonical URL',
  caption: 'Caption',
  code: 'Code',
  currentPassword: 'Current password',
  description: 'Description',
  displayName: 'Display name',
  email: 'E-mail address',
  events: 'Events',
  expiresAt: 'Expiry',
  expiresInSeconds: 'Validity',
  format: 'Format',
  intervalHours: 'Interval (hours)',
  metaDescription: 'Meta description',
  metaTitle: 'Meta title',
  name: 'Name',
  newPassword: 'New password',
  noindex: 'Hide from search engines',
  ogImage: 'Social image',
  originalName: 'Name',
  orphanGraceHours: 'Grace period (hours)',
  password: 'Password',
  publishAt: 'Publication time',
  q: 'Search',
  role: 'Role',
  scopes: 'Scopes',
  siteId: 'Site',
  slug: 'Slug',
  title: 'Title',
  url: 'Address',
  urlPattern: 'Article URL pattern',
};

// A key at the start of the message or of one of its `; `-joined parts, with an optional `.index`.
const LEADING_KEY = /(^|;\s+)([a-z][A-Za-z]*)(?:\.(\d+))?(?=[\s:])/g;

/**
 * "baseUrl must be an http(s) URL" → "Base URL must be an http(s) URL"; text without a known key stays.
 * A form may name its own fields' labels (`labels`, looked up first).
 */
export function inWords(message: string, labels: Readonly<Record<string, string>> = {}): string {
  return message.replace(LEADING_KEY, (whole, start: string, key: string, index: string | undefined) => {
    const label = Object.hasOwn(labels, key)
      ? labels[key]
      : Object.hasOwn(FIELD_LABELS, key)
        ? FIELD_LABELS[key]
        : undefined;
    if (!label) return whole;
    return `${start}${label}${index === undefined ? '' : ` (${Number(index) + 1})`}`;
  });
}

export const issueInWords = (issue: Issue, labels: Readonly<Record<string, string>> = {}): Issue => ({
  path: issue.path,
  message: inWords(issue.message, labels),
});
