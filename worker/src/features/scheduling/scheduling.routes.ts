import * as z from 'zod';
import { subject } from '../../http/activity.js';
import { described, routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { ArticleSchema } from '../articles/article.schema.js';
import { ScheduleSchema } from './scheduling.schema.js';

const route = routesOf('articles');
const id = { id: IdParamSchema };

/** `/v1/articles/{id}/schedule`: publish later, or not after all. */
export const schedulingRoutes = [
  route({
    method: 'post',
    path: '/v1/articles/{id}/schedule',
    summary: 'Schedule an offline article’s publication (it stays offline until then)',
    allow: 'content.write',
    params: id,
    body: ScheduleSchema,
    responses: {
      200: z.object({ article: ArticleSchema }),
      204: described(null, 'Scheduled, but the caller may not read offline articles, so nothing of it is shown'),
    },
    errors: [409],
    handler: async (c, { params, body, services }) => {
      const article = await services.scheduling.schedule(params.id, body.publishAt);
      c.var.audit('article.schedule', {
        ...subject('article', article.id),
        details: { title: article.title, publishAt: article.scheduledAt },
      });
      return services.articles.readableBy(c.var.actor, article) ? c.json({ article }) : c.body(null, 204);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/articles/{id}/schedule',
    summary: 'Cancel a scheduled publication',
    allow: 'content.write',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.scheduling.unschedule(params.id);
      c.var.audit('article.unschedule', subject('article', params.id));
      return c.body(null, 204);
    },
  }),
];
