import type { ZodType } from 'zod';
import {
  CreateArticleSchema,
  ListArticlesQuerySchema,
  UpdateArticleSchema,
} from '../../contract/article.schema.js';
import { ActivityExportQuerySchema, ActivityFilterSchema, ActivityListQuerySchema } from '../../contract/activity.schema.js';
import { CreateApiKeySchema } from '../../contract/api-key.schema.js';
import { CreateAuthorSchema, UpdateAuthorSchema } from '../../contract/author.schema.js';
import { SeoInputSchema } from '../../contract/seo.schema.js';
import { MediaListQuerySchema } from '../../contract/media.schema.js';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { PurgeRunRequestSchema, PurgeSettingsSchema } from '../../contract/purge.schema.js';
import { CreateSiteSchema, UpdateSiteSchema } from '../../contract/site.schema.js';
import {
  AcceptInvitationSchema,
  CreateInvitationSchema,
  LoginSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  RegisterSchema,
  UpdateMeSchema,
  UpdateUserSchema,
  VerifySchema,
} from '../../contract/user.schema.js';
import type { Permission } from '../../core/accounts/policy.js';
import { obj, pageOf, ref, wrapped } from './components.js';

/**
 * Every route of the API, described once. Request schemas are the zod
 * schemas the routes validate with; test/node/openapi.test.ts fails when a
 * route of the app is missing here or described but not served.
 */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI style: `/v1/articles/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** 'public', or the permission of core/accounts/policy.ts the route requires. */
  auth: 'public' | Permission;
  query?: ZodType;
  body?: ZodType;
  multipart?: boolean;
  /** Status → response body schema (null: no body). Errors are added from `errors`. */
  ok: [number, object | null];
  errors?: number[];
  rateLimited?: boolean;
}

const ok = (status: number, schema: object | null): [number, object | null] => [status, schema];
const article = wrapped('article', 'Article');
const user = wrapped('user', 'User');
const invitation = wrapped('invitation', 'Invitation');
const site = wrapped('site', 'Site');
const author = wrapped('author', 'Author');

export const OPERATIONS: Operation[] = [
  { method: 'get', path: '/healthz', summary: 'The process serves', tag: 'system', auth: 'public', ok: ok(200, obj({ ok: { const: true } })) },
  { method: 'get', path: '/readyz', summary: 'Database and storage answer', tag: 'system', auth: 'public', ok: ok(200, { type: 'object' }), errors: [503] },
  { method: 'get', path: '/v1/system/version', summary: 'The running build', tag: 'system', auth: 'public', ok: ok(200, ref('Version')) },
  { method: 'get', path: '/v1/system/update', summary: 'Running version, newest release in the feed, what is staged', tag: 'system', auth: 'system.read', ok: ok(200, ref('UpdateStatus')), errors: [401, 403] },
  { method: 'post', path: '/v1/system/update/check', summary: 'Read and verify the release feed now', tag: 'system', auth: 'updates.apply', ok: ok(200, ref('UpdateStatus')), errors: [400, 401, 403, 409] },
  { method: 'post', path: '/v1/system/update/download', summary: 'Download, verify and stage the newest release (Node); 400 names the refusal, nothing staged', tag: 'system', auth: 'updates.apply', ok: ok(200, ref('UpdateStatus')), errors: [400, 401, 403, 409] },
  { method: 'post', path: '/v1/system/update/apply', summary: 'Node under the supervisor: restart into the staged release (SQLite backed up first); back to the running one by itself when /readyz is not healthy in time. 202 once the supervisor accepted; GET shows pending, then lastApply. 409 on Workers (an update is a deployment: docs/releases.md), without the supervisor, with nothing newer staged, or while a switch runs', tag: 'system', auth: 'updates.apply', ok: ok(202, ref('UpdateStatus')), errors: [401, 403, 409] },
  { method: 'post', path: '/v1/system/update/rollback', summary: 'Node under the supervisor: back to `previous`, restoring the SQLite backup taken when it was left (writes since are set aside in a new backup). 202 once accepted; 409 as for apply, or with no previous release', tag: 'system', auth: 'updates.apply', ok: ok(202, ref('UpdateStatus')), errors: [401, 403, 409] },
  { method: 'get', path: '/v1/openapi.json', summary: 'This description', tag: 'system', auth: 'public', ok: ok(200, { type: 'object' }) },

  { method: 'get', path: '/v1/auth/registration', summary: 'Whether registration is open', tag: 'auth', auth: 'public', ok: ok(200, obj({ open: { type: 'boolean' } })) },
  { method: 'post', path: '/v1/auth/register', summary: 'Register the first account (sends the verification e-mail)', tag: 'auth', auth: 'public', body: RegisterSchema, ok: ok(201, ref('Session')), errors: [400, 403, 409, 503] },
  { method: 'delete', path: '/v1/auth/registration', summary: 'Cancel one’s unverified registration', tag: 'auth', auth: 'account.self', ok: ok(204, null), errors: [401, 403] },
  { method: 'post', path: '/v1/auth/verify', summary: 'Verify an account with the e-mailed code', tag: 'auth', auth: 'public', body: VerifySchema, ok: ok(200, user), errors: [400, 403], rateLimited: true },
  { method: 'post', path: '/v1/auth/verify/resend', summary: 'Send a new verification code', tag: 'auth', auth: 'account.self', ok: ok(202, null), errors: [401, 409, 503], rateLimited: true },
  { method: 'post', path: '/v1/auth/login', summary: 'Sign in', tag: 'auth', auth: 'public', body: LoginSchema, ok: ok(200, ref('Session')), errors: [400, 401], rateLimited: true },
  { method: 'post', path: '/v1/auth/password-reset', summary: 'Ask for a reset e-mail (same answer for unknown addresses; 503 for all while mail is down)', tag: 'auth', auth: 'public', body: PasswordResetRequestSchema, ok: ok(202, obj({ ok: { const: true } })), errors: [400, 503], rateLimited: true },
  { method: 'post', path: '/v1/auth/password-reset/confirm', summary: 'Set a new password with the e-mailed code; ends every session', tag: 'auth', auth: 'public', body: PasswordResetConfirmSchema, ok: ok(200, obj({ ok: { const: true } })), errors: [400], rateLimited: true },
  { method: 'get', path: '/v1/auth/me', summary: 'The signed-in user', tag: 'auth', auth: 'account.self', ok: ok(200, user), errors: [401] },
  { method: 'patch', path: '/v1/auth/me', summary: 'Change one’s display name or password (a new password returns a new token)', tag: 'auth', auth: 'account.self', body: UpdateMeSchema, ok: ok(200, obj({ user: ref('User'), token: { type: 'string' } }, ['user'])), errors: [400, 401] },
  { method: 'post', path: '/v1/auth/invitation/accept', summary: 'Accept an invitation: creates a verified account', tag: 'auth', auth: 'public', body: AcceptInvitationSchema, ok: ok(201, ref('Session')), errors: [400], rateLimited: true },

  { method: 'get', path: '/v1/user', summary: 'Users', tag: 'users', auth: 'users.manage', query: PageQuerySchema, ok: ok(200, pageOf('User')), errors: [400, 401, 403] },
  { method: 'get', path: '/v1/user/{id}', summary: 'One user', tag: 'users', auth: 'users.manage', ok: ok(200, user), errors: [401, 403, 404] },
  { method: 'patch', path: '/v1/user/{id}', summary: 'Edit a user; role "owner" transfers ownership', tag: 'users', auth: 'users.manage', body: UpdateUserSchema, ok: ok(200, user), errors: [400, 401, 403, 404, 409] },
  { method: 'delete', path: '/v1/user/{id}', summary: 'Delete a user (not the owner)', tag: 'users', auth: 'users.manage', ok: ok(204, null), errors: [401, 403, 404, 409] },
  { method: 'get', path: '/v1/user/invite', summary: 'Pending invitations', tag: 'users', auth: 'invitations.manage', query: PageQuerySchema, ok: ok(200, pageOf('Invitation')), errors: [400, 401, 403] },
  { method: 'post', path: '/v1/user/invite', summary: 'Invite by e-mail (valid 3 days)', tag: 'users', auth: 'invitations.manage', body: CreateInvitationSchema, ok: ok(201, invitation), errors: [400, 401, 403, 409, 503] },
  { method: 'delete', path: '/v1/user/invite/{id}', summary: 'Cancel an invitation', tag: 'users', auth: 'invitations.manage', ok: ok(204, null), errors: [401, 403, 404] },
  { method: 'post', path: '/v1/user/invite/{id}/renew', summary: 'New code, 3 more days, e-mail sent again', tag: 'users', auth: 'invitations.manage', ok: ok(200, invitation), errors: [401, 403, 404, 503] },

  { method: 'get', path: '/v1/sites', summary: 'Sites, newest first', tag: 'sites', auth: 'public', query: PageQuerySchema, ok: ok(200, pageOf('Site')), errors: [400] },
  { method: 'post', path: '/v1/sites', summary: 'Create a site', tag: 'sites', auth: 'sites.write', body: CreateSiteSchema, ok: ok(201, site), errors: [400, 401, 403] },
  { method: 'get', path: '/v1/sites/{id}/sitemap.xml', summary: 'sitemap.xml of the site’s online articles (noindex ones left out; up to 50,000 URLs)', tag: 'sites', auth: 'public', ok: ok(200, null), errors: [404] },
  { method: 'get', path: '/v1/sites/{id}/feed.xml', summary: 'RSS 2.0 feed of the site’s 50 newest online articles', tag: 'sites', auth: 'public', ok: ok(200, null), errors: [404] },
  { method: 'get', path: '/v1/sites/{id}', summary: 'One site', tag: 'sites', auth: 'public', ok: ok(200, site), errors: [404] },
  { method: 'patch', path: '/v1/sites/{id}', summary: 'Edit a site', tag: 'sites', auth: 'sites.write', body: UpdateSiteSchema, ok: ok(200, site), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/v1/sites/{id}', summary: 'Delete a site (409 while articles use it)', tag: 'sites', auth: 'sites.write', ok: ok(204, null), errors: [401, 403, 404, 409] },
  { method: 'get', path: '/v1/authors', summary: 'Authors, newest first', tag: 'authors', auth: 'public', query: PageQuerySchema, ok: ok(200, pageOf('Author')), errors: [400] },
  { method: 'post', path: '/v1/authors', summary: 'Create an author (slug unique)', tag: 'authors', auth: 'authors.write', body: CreateAuthorSchema, ok: ok(201, author), errors: [400, 401, 403, 409] },
  { method: 'get', path: '/v1/authors/{id}', summary: 'One author', tag: 'authors', auth: 'public', ok: ok(200, author), errors: [404] },
  { method: 'patch', path: '/v1/authors/{id}', summary: 'Edit an author (slug unique)', tag: 'authors', auth: 'authors.write', body: UpdateAuthorSchema, ok: ok(200, author), errors: [400, 401, 403, 404, 409] },
  { method: 'delete', path: '/v1/authors/{id}', summary: 'Delete an author (409 while articles name it)', tag: 'authors', auth: 'authors.write', ok: ok(204, null), errors: [401, 403, 404, 409] },

  { method: 'get', path: '/v1/articles', summary: 'Articles, newest first (the public sees online ones)', tag: 'articles', auth: 'public', query: ListArticlesQuerySchema, ok: ok(200, pageOf('Article')), errors: [400] },
  { method: 'post', path: '/v1/articles', summary: 'Create an article (offline)', tag: 'articles', auth: 'content.write', body: CreateArticleSchema, ok: ok(201, article), errors: [400, 401] },
  { method: 'get', path: '/v1/articles/{id}', summary: 'One article (offline ones for verified users only)', tag: 'articles', auth: 'public', ok: ok(200, article), errors: [404] },
  { method: 'patch', path: '/v1/articles/{id}', summary: 'Edit an article', tag: 'articles', auth: 'content.write', body: UpdateArticleSchema, ok: ok(200, article), errors: [400, 401, 404] },
  { method: 'delete', path: '/v1/articles/{id}', summary: 'Delete an article and its images', tag: 'articles', auth: 'content.write', ok: ok(204, null), errors: [401, 404] },
  { method: 'post', path: '/v1/articles/{id}/publish', summary: 'Put online', tag: 'articles', auth: 'content.write', ok: ok(200, article), errors: [401, 404] },
  { method: 'post', path: '/v1/articles/{id}/unpublish', summary: 'Take offline', tag: 'articles', auth: 'content.write', ok: ok(200, article), errors: [401, 404] },
  { method: 'get', path: '/v1/articles/{id}/structured-data', summary: 'Open Graph properties, JSON-LD (also as script-safe text) and robots for a page head', tag: 'articles', auth: 'public', ok: ok(200, ref('StructuredData')), errors: [404] },
  { method: 'get', path: '/v1/articles/{id}/seo', summary: 'An article’s SEO data (same visibility as the article)', tag: 'articles', auth: 'public', ok: ok(200, wrapped('seo', 'Seo')), errors: [404] },
  { method: 'put', path: '/v1/articles/{id}/seo', summary: 'Replace an article’s SEO data (fields left out are cleared)', tag: 'articles', auth: 'content.write', body: SeoInputSchema, ok: ok(200, wrapped('seo', 'Seo')), errors: [400, 401, 403, 404] },
  { method: 'get', path: '/v1/articles/{id}/images', summary: 'An article’s images', tag: 'articles', auth: 'public', query: PageQuerySchema, ok: ok(200, pageOf('Image')), errors: [400, 404] },
  { method: 'post', path: '/v1/articles/{id}/images', summary: 'Upload an image (multipart field "file"; JPEG, PNG, WebP, GIF)', tag: 'articles', auth: 'media.upload', multipart: true, ok: ok(201, wrapped('image', 'Image')), errors: [400, 401, 404, 413, 503] },

  { method: 'get', path: '/static/uploadedImages/{filename}', summary: 'An uploaded image, or a variant with ?w= and ?format=webp|jpeg|png', tag: 'media', auth: 'public', ok: ok(200, null), errors: [400, 404] },
  { method: 'get', path: '/v1/media', summary: 'The media library, newest first (?articleId=, ?q=)', tag: 'media', auth: 'media.read', query: MediaListQuerySchema, ok: ok(200, pageOf('Image')), errors: [400, 401, 403] },
  { method: 'get', path: '/v1/media/variants', summary: 'The variant cache: count, bytes, presets', tag: 'media', auth: 'media.read', ok: ok(200, ref('VariantCache')), errors: [401, 403] },
  { method: 'delete', path: '/v1/media/variants', summary: 'Empty the variant cache (originals untouched)', tag: 'media', auth: 'media.manage', ok: ok(204, null), errors: [401, 403] },
  { method: 'get', path: '/v1/media/purge/settings', summary: 'Purge settings, with lastRunAt and nextRunAt', tag: 'media', auth: 'media.read', ok: ok(200, obj({ settings: { type: 'object' } })), errors: [401, 403] },
  { method: 'put', path: '/v1/media/purge/settings', summary: 'Change the purge settings (stored in the database)', tag: 'media', auth: 'purge.configure', body: PurgeSettingsSchema, ok: ok(200, obj({ settings: { type: 'object' } })), errors: [400, 401, 403] },
  { method: 'post', path: '/v1/media/purge', summary: 'Purge duplicates and orphans now (or a dry run): what was removed, bytes freed', tag: 'media', auth: 'purge.run', body: PurgeRunRequestSchema, ok: ok(200, obj({ run: { type: 'object' } })), errors: [400, 401, 403] },
  { method: 'get', path: '/v1/media/purge/runs', summary: 'Past purge runs, manual and scheduled, newest first', tag: 'media', auth: 'media.read', query: PageQuerySchema, ok: ok(200, pageOf('PurgeRun')), errors: [400, 401, 403] },
  { method: 'get', path: '/v1/media/{id}', summary: 'One image with its variants', tag: 'media', auth: 'media.read', ok: ok(200, obj({ image: { type: 'object' } })), errors: [401, 403, 404] },
  { method: 'delete', path: '/v1/media/{id}', summary: 'Delete an image, its variants and cached copies', tag: 'media', auth: 'media.manage', ok: ok(204, null), errors: [401, 403, 404] },
  { method: 'delete', path: '/v1/media/{id}/variants', summary: 'Drop one image’s variants', tag: 'media', auth: 'media.manage', ok: ok(204, null), errors: [401, 403, 404] },

  { method: 'get', path: '/v1/activity', summary: 'The activity log, newest first (?action=, ?actorId=, ?from=, ?to=)', tag: 'activity', auth: 'activity.read', query: ActivityListQuerySchema, ok: ok(200, pageOf('ActivityEntry')), errors: [400, 401, 403] },
  { method: 'get', path: '/v1/activity/summary', summary: 'Counts by action, actor and UTC day over ?from=&to=, and the log’s size and bound', tag: 'activity', auth: 'activity.read', query: ActivityFilterSchema, ok: ok(200, ref('ActivitySummary')), errors: [400, 401, 403] },
  { method: 'get', path: '/v1/activity/export', summary: 'The matching entries as a streamed download (?format=csv|ndjson, default ndjson)', tag: 'activity', auth: 'activity.read', query: ActivityExportQuerySchema, ok: ok(200, null), errors: [400, 401, 403] },

  { method: 'get', path: '/v1/api-keys', summary: 'Integration keys (never their secrets)', tag: 'api-keys', auth: 'apiKeys.manage', query: PageQuerySchema, ok: ok(200, pageOf('ApiKey')), errors: [400, 401, 403] },
  { method: 'post', path: '/v1/api-keys', summary: 'Create a key: the secret is in this answer only', tag: 'api-keys', auth: 'apiKeys.manage', body: CreateApiKeySchema, ok: ok(201, obj({ apiKey: ref('ApiKey'), secret: { type: 'string', pattern: '^cms_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$' } })), errors: [400, 401, 403] },
  { method: 'delete', path: '/v1/api-keys/{id}', summary: 'Revoke a key: refused from the next request on', tag: 'api-keys', auth: 'apiKeys.manage', ok: ok(204, null), errors: [401, 403, 404] },
];
