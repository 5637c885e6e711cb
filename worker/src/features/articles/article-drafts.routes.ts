import type { Context } from 'hono';
import * as z from 'zod';
import { canReadOffline } from '../../auth/policy.js';
import { notFound } from '../../core/domain/errors.js';
import { parseIfMatch } from '../../core/shared/entity-tags.js';
import { subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { described, routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { ArticleSchema } from './article.schema.js';
import {
  DraftConflictSchema,
  type DraftDto,
  DraftInputSchema,
  DraftScheduleSchema,
  DraftSchema,
  RevisionListItemSchema,
  RevisionSchema,
} from './article-draft.schema.js';
import { draftETag } from './article-drafts.service.js';
import { toRevisionDto } from './article-revisions.js';
import { articleETag } from './articles.service.js';

const route = routesOf('articles');
const id = { id: IdParamSchema };
const DraftAnswer = z.object({ draft: DraftSchema });
const StaleDraft = described(
  DraftConflictSchema,
  'If-Match names no current version of the draft: nothing was written. `ETag` and `version` give the current one (`"d0"`, 0: there is no draft), and `draft` the draft as it stands',
);
const Unreadable = described(
  null,
  'Done, but the caller may not read offline articles (a content:write key without content:read), so nothing of it is shown',
);
const ifMatch = (c: Context<AppEnv>) => parseIfMatch(c.req.header('if-match'));

/** A draft write's answer: the draft and its ETag, or 204 for a caller who may not read unpublished text. */
function draftAnswer(c: Context<AppEnv>, draft: DraftDto) {
  c.header('ETag', draftETag(draft.version));
  return canReadOffline(c.var.actor) ? c.json({ draft }) : c.body(null, 204);
}

/** `/v1/articles/{id}/draft` and `…/revisions`: changes kept apart from the live article, and its history. */
export const articleDraftsRoutes = [
  route({
    method: 'get',
    path: '/v1/articles/{id}/draft',
    summary: 'The article’s pending draft: its fields as they would be once published (404 when there is none)',
    allow: 'content.readOffline',
    params: id,
    responses: { 200: DraftAnswer },
    etag: 'read',
    handler: async (c, { params, services }) => {
      const draft = await services.articleDrafts.get(params.id);
      return c.json({ draft }, 200, { ETag: draftETag(draft.version) });
    },
  }),
  route({
    method: 'put',
    path: '/v1/articles/{id}/draft',
    summary:
      'Write the article’s draft; the live article does not change (fields left out keep the draft’s value, the live one’s while there is no draft)',
    allow: 'content.write',
    params: id,
    body: DraftInputSchema,
    responses: { 200: DraftAnswer, 204: Unreadable, 412: StaleDraft },
    etag: 'write',
    handler: async (c, { params, body, services }) =>
      draftAnswer(c, await services.articleDrafts.put(params.id, body, ifMatch(c))),
  }),
  route({
    method: 'delete',
    path: '/v1/articles/{id}/draft',
    summary: 'Discard the article’s draft',
    allow: 'content.write',
    params: id,
    responses: { 204: null, 412: StaleDraft },
    etag: 'write',
    handler: async (c, { params, services }) => {
      await services.articleDrafts.discard(params.id, ifMatch(c));
      c.var.audit('article.draft.discard', subject('article', params.id));
      return c.body(null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/v1/articles/{id}/draft/publish',
    summary:
      'Make the draft live: one write of the article (`article.updated`, its activity entry, a revision while online) that drops the draft',
    allow: 'content.write',
    params: id,
    responses: { 200: z.object({ article: ArticleSchema }), 204: Unreadable, 412: StaleDraft },
    etag: 'write',
    // The draft's slug may be taken in its site by now.
    errors: [409],
    handler: async (c, { params, services, links }) => {
      const article = await services.articleDrafts.publish(params.id, ifMatch(c), links, c.var.origin());
      c.header('ETag', articleETag(article.version));
      return services.articles.readableBy(c.var.actor, article) ? c.json({ article }) : c.body(null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/v1/articles/{id}/draft/schedule',
    summary:
      'Schedule the draft: the scheduler makes it live at `publishAt` as `…/draft/publish` does (a scheduled update)',
    allow: 'content.write',
    params: id,
    body: DraftScheduleSchema,
    responses: { 200: DraftAnswer, 204: Unreadable, 412: StaleDraft },
    etag: 'write',
    handler: async (c, { params, body, services }) => {
      const draft = await services.articleDrafts.schedule(params.id, body.publishAt, ifMatch(c));
      c.var.audit('article.draft.schedule', {
        ...subject('article', params.id),
        details: { publishAt: draft.publishAt },
      });
      return draftAnswer(c, draft);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/articles/{id}/draft/schedule',
    summary: 'Cancel the draft’s scheduled update (the draft stays)',
    allow: 'content.write',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.articleDrafts.unschedule(params.id);
      c.var.audit('article.draft.unschedule', subject('article', params.id));
      return c.body(null, 204);
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}/revisions',
    summary: 'What the article was at each publication and update while online, newest first (no bodies)',
    allow: 'content.readOffline',
    params: id,
    responses: { 200: z.object({ items: z.array(RevisionListItemSchema) }) },
    handler: async (c, { params, services }) => {
      await services.articles.existing(params.id);
      return c.json({ items: await services.articleRevisions.list(params.id) });
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}/revisions/{revisionId}',
    summary: 'One revision, with its body',
    allow: 'content.readOffline',
    params: { id: IdParamSchema, revisionId: IdParamSchema },
    responses: { 200: z.object({ revision: RevisionSchema }) },
    handler: async (c, { params, services }) => {
      const revision = await services.articleRevisions.find(params.id, params.revisionId);
      if (!revision) throw notFound();
      return c.json({ revision: toRevisionDto(revision) });
    },
  }),
  route({
    method: 'post',
    path: '/v1/articles/{id}/revisions/{revisionId}/restore',
    summary: 'Make the draft from a revision (the live article does not change; publish the draft to make it live)',
    allow: 'content.write',
    params: { id: IdParamSchema, revisionId: IdParamSchema },
    responses: { 200: DraftAnswer, 204: Unreadable, 412: StaleDraft },
    etag: 'write',
    handler: async (c, { params, services }) => {
      const draft = await services.articleDrafts.restore(params.id, params.revisionId, ifMatch(c));
      c.var.audit('article.revision.restore', {
        ...subject('article', params.id),
        details: { revisionId: params.revisionId },
      });
      return draftAnswer(c, draft);
    },
  }),
];
