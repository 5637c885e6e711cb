import { Hono } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { namesAField, subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { allow } from '../../http/middleware/auth.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import { CreateSiteSchema, UpdateSiteSchema } from './site.schema.js';

/** `/v1/sites`: public reads, verified writes (docs/api.md#sites-and-authors). */
export const sitesRoutes = new Hono<AppEnv>()
  .get('/', validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.sites.list(limit, cursor));
  })
  // Crawlers and feed readers may cache these for a few minutes.
  .get('/:id/sitemap.xml', async (c) =>
    c.body(await c.var.services.syndication.sitemap(idParam(c.req.param('id'))), 200, {
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': 'public, max-age=300',
    }),
  )
  .get('/:id/feed.xml', async (c) =>
    c.body(await c.var.services.syndication.feed(idParam(c.req.param('id'))), 200, {
      'content-type': 'application/rss+xml; charset=utf-8',
      'cache-control': 'public, max-age=300',
    }),
  )
  .get('/:id', async (c) => c.json({ site: await c.var.services.sites.get(idParam(c.req.param('id'))) }))
  .post('/', allow('sites.write'), validate('json', CreateSiteSchema), async (c) => {
    const site = await c.var.services.sites.create(c.req.valid('json'));
    c.var.audit('site.create', { ...subject('site', site.id), details: { name: site.name } });
    return c.json({ site }, 201);
  })
  .patch('/:id', allow('sites.write'), validate('json', UpdateSiteSchema), async (c) => {
    const input = c.req.valid('json');
    const site = await c.var.services.sites.update(idParam(c.req.param('id')), input);
    if (namesAField(input)) c.var.audit('site.update', { ...subject('site', site.id), details: { name: site.name } });
    return c.json({ site });
  })
  .delete('/:id', allow('sites.write'), async (c) => {
    const id = idParam(c.req.param('id'));
    await c.var.services.sites.delete(id);
    c.var.audit('site.delete', subject('site', id));
    return c.body(null, 204);
  });
