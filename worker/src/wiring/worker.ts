import { createWorkersAssetServer } from '../adapters/assets/workers.asset-server.js';
import { createR2BlobStore } from '../adapters/blob/r2.blob-store.js';
import { createWorkersEdgeCache } from '../adapters/cache/workers.edge-cache.js';
import { createInlineHtmlRenderer } from '../adapters/content/inline.html-renderer.js';
import { createD1ActivityLog, createD1Kit } from '../adapters/db/sqlite/d1.js';
import { createD1Sessions } from '../adapters/db/sqlite/d1-sessions.js';
import { createCodecRenderer } from '../adapters/image/codec.renderer.js';
import { createImagesBindingRenderer } from '../adapters/image/images-binding.renderer.js';
import { createPhotonImageCodec } from '../adapters/image/photon.image-codec.js';
import { createWebpEncoder } from '../adapters/image/webp.encoder.js';
import { workersWebpEncoderWasm } from '../adapters/image/webp-wasm.workers.js';
import { createDurableObjectRateLimiter } from '../adapters/rate-limit/durable-object.rate-limiter.js';
import { asyncRequestScope, createJsonLogger, systemClock } from '../adapters/runtime/system.runtime.js';
import { createDbUpdateState } from '../adapters/update/db-update-state.js';
import { createHttpUpdateFeed } from '../adapters/update/http-update-feed.js';
import { createFetchWebhookTransport } from '../adapters/webhook/fetch.webhook-transport.js';
import { buildRepositories } from '../app/services.js';
import { buildInfo } from '../config/build-info.js';
import type { Settings } from '../config/settings.js';
import { renderArticleHtml } from '../core/content/render.js';
import { REQUEST_DECODE_BUDGET } from '../core/domain/image-limits.js';
import { UpdateService } from '../core/releases/update.service.js';
import type { AppDeps } from '../feature-api/deps.js';
import type { Logger } from '../ports/runtime.js';
import { commonDeps } from './common.js';

/**
 * Through the Images binding when wrangler.toml has `[images]` (the work is
 * off the Worker's CPU: every plan can make variants); otherwise photon in
 * the request: each request has its own CPU and memory budget, and the
 * platform ends one that overruns; what a decode may cost is checked from the
 * header before it starts. Which one, or none (IMAGE_VARIANTS=off), is said
 * once at start-up, so an operator sees what the plan gets.
 */
function variantRenderer(env: Env, settings: Settings, logger: Logger) {
  // Not in the generated Env unless `[images]` is uncommented in wrangler.toml.
  const images = (env as Env & { IMAGES?: ImagesBinding }).IMAGES;
  const off = settings.imageVariantWidths.length === 0;
  logger.info('image variants', {
    made: off ? 'none (IMAGE_VARIANTS=off)' : images ? 'by the Images binding' : 'in the request (photon)',
  });
  if (images) return createImagesBindingRenderer(images, logger);
  return createCodecRenderer(createPhotonImageCodec(createWebpEncoder(workersWebpEncoderWasm)), {
    decodeBudget: REQUEST_DECODE_BUDGET,
  });
}

/**
 * `env` is the `Env` that `npm run cf:types` generates from wrangler.toml
 * (worker/src/worker-configuration.d.ts): the bindings used here, and the
 * vars and secrets, which reach the app only through parseSettings.
 */
export function buildWorkerDeps(env: Env, settings: Settings): AppDeps {
  // Workers Logs keeps the console method as the line's level.
  const logger = createJsonLogger((line, level) => console[level](line), { level: settings.logLevel });
  const version = buildInfo('workers');
  // Repositories read through the request's D1 session (read replicas; the admin's bookmark).
  const { db, sessions } = createD1Sessions(env.DB);
  const repos = buildRepositories(createD1Kit(db));
  const common = commonDeps(settings, settings.jwtSecret ?? '', logger);
  return {
    settings,
    version,
    // Workers update by deploying: status and checks only. The state (highest
    // sequence seen, last check) is a D1 row shared by every isolate.
    updates: new UpdateService({
      feed: settings.updateFeedUrl ? createHttpUpdateFeed(settings.updateFeedUrl) : null,
      store: createDbUpdateState(repos.systemState, () => systemClock.now()),
      stager: null,
      clock: systemClock,
      logger,
      currentVersion: version.version,
    }),
    repos,
    activityLog: createD1ActivityLog(db, settings.activityLogMaxBytes),
    dbSessions: sessions,
    edgeCache: createWorkersEdgeCache({
      // Workers' global cache (the DOM typing of `caches` in this project has no `default`).
      cache: (caches as unknown as { default: Cache }).default,
      origin: settings.publicUrl,
      ttlSeconds: settings.publicCache.seconds,
      purge: settings.cachePurge,
      state: repos.systemState,
      clock: common.clock,
      logger,
      newId: () => common.ids.newId(),
    }),
    blobs: createR2BlobStore(env.MEDIA),
    assets: createWorkersAssetServer(env.ASSETS),
    logger,
    requestScope: asyncRequestScope,
    rateLimiter: createDurableObjectRateLimiter(env.RATE_LIMITER),
    // Set by Cloudflare's edge from the connection; a client cannot forge it.
    peerAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined,
    // Only used outside a request; inside one, the route uses waitUntil.
    defer: (work) => void work.catch((err) => logger.error('deferred work failed', err)),
    renderer: variantRenderer(env, settings, logger),
    // In the request too: MAX_RENDER_BYTES bounds its CPU (docs/deploy-workers.md).
    htmlRenderer: createInlineHtmlRenderer(renderArticleHtml),
    webhookTransport: createFetchWebhookTransport(),
    ...common,
  };
}
