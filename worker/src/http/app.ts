import { Hono } from 'hono';
import type { AppDeps } from '../app/deps.js';
import { buildServices } from '../app/services.js';
import { authRoutes } from '../features/accounts/auth.routes.js';
import { usersRoutes } from '../features/accounts/users.routes.js';
import { activityRoutes } from '../features/activity/activity.routes.js';
import { apiKeysRoutes } from '../features/api-keys/api-keys.routes.js';
import { articlesRoutes } from '../features/articles/articles.routes.js';
import { authorsRoutes } from '../features/authors/authors.routes.js';
import { mediaRoutes } from '../features/media/media.routes.js';
import { staticImagesRoutes } from '../features/media/static-images.routes.js';
import { purgeRoutes } from '../features/purge/purge.routes.js';
import { sitesRoutes } from '../features/sites/sites.routes.js';
import { healthRoutes, openApiRoute, systemRoutes } from '../features/system/system.routes.js';
import { updateRoutes } from '../features/system/update.routes.js';
import { activityRecorder } from './activity.js';
import type { AppEnv } from './env.js';
import { authenticate } from './middleware/auth.js';
import { jsonBodyLimits } from './middleware/body-limit.js';
import { notFoundJson, onError } from './middleware/errors.js';
import { rateLimiting } from './middleware/rate-limit.js';
import { securityHeaders, withSecurityHeaders } from './middleware/security-headers.js';

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
