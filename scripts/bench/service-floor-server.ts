import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { FloorParts } from './lib/floor-parts.ts';
import { floorAnswerer, serveBenchApp } from './lib/serve-child.ts';
import type { ServiceParts } from './lib/service-parts.ts';

/**
 * The floor of an uncached article read made the app's way: the floor
 * server's answer (headers, request id, SHA-1 ETag, one access line per
 * request), but the article read through the app's own articles service on
 * the app's own wiring (drizzle's prepared read and row mapping, the
 * visibility check, `toArticleDto`) in a one-route Hono app. What the real
 * server spends above this is its layers (request scope, CORS, conditional
 * reads, security headers, caller, validation, routing among every route);
 * what this spends above the floor is the service layer.
 *
 * FLOOR_PARTS and SERVICE_PARTS name the bundled app code (lib/floor-parts.ts,
 * lib/service-parts.ts); DATABASE_URL the seeded SQLite file.
 */
const floorFile = process.env.FLOOR_PARTS;
const serviceFile = process.env.SERVICE_PARTS;
if (!floorFile || !serviceFile) throw new Error('FLOOR_PARTS and SERVICE_PARTS are needed');
const parts = (await import(floorFile)) as FloorParts;
const service = (await import(serviceFile)) as ServiceParts;
const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const articles = await service.openArticleReads(process.env, appRoot);

const answer = floorAnswerer(parts);

const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
app.get('/v1/articles/:id', async (c) => {
  const started = performance.now();
  const text = JSON.stringify({ article: await articles.read(c.req.param('id'), c.req.url) });
  return answer(c, text, '/v1/articles/{id}', started);
});

serveBenchApp(app);
