import { rawBody, routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { StructuredDataSchema } from './syndication.schema.js';

const route = routesOf('sites');
const id = { id: IdParamSchema };

/** Sitemaps and feeds of a site, structured data of an article: built from online articles only. */
export const syndicationRoutes = [
  route({
    method: 'get',
    path: '/v1/sites/{id}/sitemap.xml',
    summary: 'sitemap.xml of the site’s online articles (noindex ones left out; up to 50,000 URLs)',
    allow: 'public',
    cache: 'shared',
    params: id,
    responses: { 200: rawBody('application/xml') },
    handler: async (c, { params, services }) =>
      c.body(await services.syndication.sitemap(params.id), 200, {
        'content-type': 'application/xml; charset=utf-8',
      }),
  }),
  route({
    method: 'get',
    path: '/v1/sites/{id}/feed.xml',
    summary: 'RSS 2.0 feed of the site’s 50 newest online articles',
    allow: 'public',
    cache: 'shared',
    params: id,
    responses: { 200: rawBody('application/rss+xml') },
    handler: async (c, { params, services }) =>
      c.body(await services.syndication.feed(params.id), 200, {
        'content-type': 'application/rss+xml; charset=utf-8',
      }),
  }),
  routesOf('articles')({
    method: 'get',
    path: '/v1/articles/{id}/structured-data',
    summary: 'Open Graph properties, JSON-LD (also as script-safe text) and robots for a page head',
    allow: 'public',
    // Offline articles' data for those who may read them: private.
    cache: { privateFor: 'content.readOffline' },
    params: id,
    responses: { 200: StructuredDataSchema },
    handler: async (c, { params, services }) =>
      c.json(await services.syndication.structuredData(c.var.actor, params.id)),
  }),
];
