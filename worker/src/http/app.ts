import { Hono } from 'hono';
import { activityRecorder } from './activity.js';
import type { AppDeps } from './deps.js';
import type { AppEnv } from './env.js';
import { authenticate } from './middleware/auth.js';
import { jsonBodyLimits } from './middleware/body-limit.js';
import { notFoundJson, onError } from './middleware/errors.js';
import { rateLimiting } from './middleware/rate-limit.js';
import { securityHeaders, withSecurityHeaders } from './middleware/security-headers.js';
import { activityRoutes } from './routes/activity.routes.js';
import { apiKeysRoutes } from './routes/api-keys.routes.js';
import { articlesRoutes } from './routes/articles.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { authorsRoutes } from './routes/authors.routes.js';
import { mediaRoutes } from './routes/media.routes.js';
import { purgeRoutes } from './routes/purge.routes.js';
import { sitesRoutes } from './routes/sites.routes.js';
import { staticImagesRoutes } from './routes/static-images.routes.js';
import { healthRoutes, openApiRoute, systemRoutes } from './routes/system.routes.js';
import { updateRoutes } from './routes/update.routes.js';
import { usersRoutes } from './routes/users.routes.js';
import { buildServices } from './services.js';

/** The one Hono app both targets serve; only the deps differ. */
export function createApp(deps: AppDeps) {
  const services = buildServices(deps);
  const api = new Hono<AppEnv>()
    .use(jsonBodyLimits({ json: deps.settings.maxJsonBytes, article: deps.settings.maxArticleBytes }))
    .use(activityRecorder(deps))
    .use(authenticate)
    .use(deps.publicReadCache?.middleware ?? ((_c, next) => next()))
    .route('/auth', authRoutes(rateLimiting(deps), deps.defer))
    .route('/user', usersRoutes)
    .route('/articles', articlesRoutes(deps.settings.maxUploadBytes))
    .route('/sites', sitesRoutes)
    .route('/authors', authorsRoutes)
    .route('/activity', activityRoutes)
    .route('/api-keys', apiKeysRoutes)
    .route('/media/purge', purgeRoutes)
    .route('/media', mediaRoutes)
    .route('/system', systemRoutes(deps.version))
    .route('/system/update', updateRoutes(deps.updates))
    .route('/', openApiRoute(deps.version))
    .all('*', notFoundJson);

  const app = new Hono<AppEnv>({ strict: true });
  if (deps.publicReadCache) app.use(deps.publicReadCache.serveHit);
  app.use(securityHeaders());
  app.use(async (c, next) => {
    c.set('services', services);
    await next();
  });
  app.onError(onError(deps.logger));
  app.route('/', healthRoutes(deps));
  app.route('/v1', api);
  app.route('/static/uploadedImages', staticImagesRoutes(deps.settings.imageVariantWidths, deps.defer));
  app.all('/static/*', notFoundJson);
  // Everything else is the admin SPA: static files get the same headers.
  app.on(['GET', 'HEAD'], '*', async (c) => withSecurityHeaders(await deps.assets.fetch(c.req.raw)));
  app.notFound(notFoundJson);
  return app;
}

export type App = ReturnType<typeof createApp>;
