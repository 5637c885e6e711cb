import type { MiddlewareHandler } from 'hono';
import * as z from 'zod';
import { DomainError } from '../../core/domain/errors.js';
import { subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { routesOf } from '../../http/route.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { PurgeRunRequestSchema, PurgeRunSchema, PurgeSettingsDtoSchema, PurgeSettingsSchema } from './purge.schema.js';
import { purgeRunDetails } from './purge.service.js';

/**
 * No body means a real run, so a body the JSON validator would skip (another
 * content type) must not quietly turn an intended dry run into a real one.
 */
const jsonOrNoBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header('content-type');
  const length = c.req.header('content-length');
  const hasBody =
    type !== undefined || (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
  if (hasBody && !/^application\/json\s*(;|$)/i.test(type ?? '')) {
    const message = 'Send the body as application/json, or no body for a real run';
    throw new DomainError('invalid_request', message, [{ path: 'body', message }]);
  }
  await next();
};

const route = routesOf('media');
const SettingsAnswer = z.object({ settings: PurgeSettingsDtoSchema });

/** `/v1/media/purge`: duplicate and orphan purge, its settings and its record. */
export const purgeRoutes = [
  route({
    method: 'get',
    path: '/v1/media/purge/settings',
    summary: 'Purge settings, with lastRunAt and nextRunAt',
    allow: 'purge.read',
    responses: { 200: SettingsAnswer },
    handler: async (c, { services }) => c.json({ settings: await services.purge.settings() }),
  }),
  route({
    method: 'put',
    path: '/v1/media/purge/settings',
    summary: 'Change the purge settings (stored in the database)',
    allow: 'purge.configure',
    body: PurgeSettingsSchema,
    responses: { 200: SettingsAnswer },
    handler: async (c, { body, services }) => {
      const settings = await services.purge.saveSettings(body);
      c.var.audit('media.purge.settings', { ...subject('purgeSettings', null), details: { ...settings } });
      return c.json({ settings });
    },
  }),
  route({
    method: 'get',
    path: '/v1/media/purge/runs',
    summary: 'Past purge runs, manual and scheduled, newest first',
    allow: 'purge.read',
    query: PageQuerySchema,
    responses: { 200: pageOf(PurgeRunSchema) },
    handler: async (c, { query, services }) => c.json(await services.purge.runs(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/media/purge',
    summary: 'Purge duplicates and orphans now (or a dry run): what was removed, bytes freed',
    allow: 'purge.run',
    before: [jsonOrNoBody],
    body: PurgeRunRequestSchema,
    responses: { 200: z.object({ run: PurgeRunSchema }) },
    // Another purge (manual or scheduled, on any instance) holds the lease.
    errors: [409],
    handler: async (c, { body, services }) => {
      const run = await services.purge.run(body.dryRun ?? false);
      c.var.audit('media.purge', { ...subject('purgeRun', run.id), details: purgeRunDetails(run) });
      return c.json({ run });
    },
  }),
];
