import path from 'node:path';
import { createNdjsonFileActivityLog } from '../adapters/activity/ndjson-file.activity-log.js';
import { createDirAssetServer } from '../adapters/assets/dir.asset-server.js';
import { createLocalDirBlobStore } from '../adapters/blob/local-dir.blob-store.js';
import { createS3BlobStore } from '../adapters/blob/s3.blob-store.js';
import { parseStorageUrl } from '../adapters/blob/storage-url.js';
import { createMemoryReadCache } from '../adapters/cache/memory.read-cache.js';
import { createThreadHtmlRenderer } from '../adapters/content/thread.html-renderer.js';
import { openNodeDatabase } from '../adapters/db/node-database.js';
import { withDatabaseBudget } from '../adapters/db/shared/request-deadline.js';
import { createThreadPoolRenderer } from '../adapters/image/thread-pool.renderer.js';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory.rate-limiter.js';
import {
  asyncRequestScope,
  createDeferTracker,
  createJsonLogger,
  systemClock,
} from '../adapters/runtime/system.runtime.js';
import { createDirReleaseStager } from '../adapters/update/dir-release-stager.js';
import { createFileUpdateState } from '../adapters/update/file-update-state.js';
import { createHttpUpdateFeed } from '../adapters/update/http-update-feed.js';
import { createSupervisorSwitcher, type SupervisorChannel } from '../adapters/update/supervisor-switcher.js';
import { createNodeWebhookTransport } from '../adapters/webhook/node.webhook-transport.js';
import { buildRepositories } from '../app/services.js';
import { buildInfo } from '../config/build-info.js';
import type { Settings } from '../config/settings.js';
import { UpdateService } from '../core/releases/update.service.js';
import { sharedRuns } from '../core/shared/shared-runs.js';
import type { AppDeps } from '../feature-api/deps.js';
import { createActivityService } from '../features/activity/activity.service.js';
import { recordUpdateActivity } from '../features/system/update-activity.js';
import type { BlobStore } from '../ports/blob-store.js';
import { commonDeps } from './common.js';

/** What @hono/node-server passes as the fetch handler's env. */
interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

export interface NodeWiringOptions {
  /** Where drizzle/ and admin-qwik/dist live (the repo, or an unpacked release). */
  appRoot: string;
  jwtSecret: string;
  writeLog?: (line: string) => void;
  /** Shared by every release under the supervisor (CMS_RELEASES_DIR); default appRoot/releases. */
  releasesDir?: string;
  /** The supervisor's IPC channel when it started this process. */
  supervisor?: SupervisorChannel | null;
  /** The render threads' entries; by default beside this module (below). */
  threadEntries?: { render: URL; html: URL };
}

export function nodeBlobStore(settings: Settings): BlobStore {
  const storage = parseStorageUrl(settings.storageUrl, {
    accessKeyId: settings.s3AccessKeyId,
    secretAccessKey: settings.s3SecretAccessKey,
    endpoint: settings.s3Endpoint,
    region: settings.s3Region,
  });
  return storage.kind === 'file' ? createLocalDirBlobStore(path.resolve(storage.root)) : createS3BlobStore(storage);
}

/**
 * The render thread's entry: built beside the server bundle
 * (dist/node/render-worker.mjs, scripts/build-node.mjs), or the TypeScript
 * source when the server itself runs from the sources (tests that wire the app
 * themselves; the API harness passes the bundle's as `threadEntries`).
 */
const renderWorkerUrl = () =>
  import.meta.url.endsWith('.ts')
    ? new URL('../adapters/image/render.worker.ts', import.meta.url)
    : new URL('./render-worker.mjs', import.meta.url);

/** The article bodies' render thread: built beside the server bundle, or the source (as above). */
const htmlRenderWorkerUrl = () =>
  import.meta.url.endsWith('.ts')
    ? new URL('./html-render.thread.ts', import.meta.url)
    : new URL('./html-render-worker.mjs', import.meta.url);

/** A thread holding more than this after a job is replaced: wasm memory never shrinks otherwise. */
const RENDER_RETAIN_BYTES = 64 * 2 ** 20;
/**
 * After 2 s without a job (the gaps inside a burst, a page asking for its
 * variants, are shorter) the pool gives back what renders grew: a fresh
 * warmed-up thread holds 28 MiB outside its heap, one that made a 1200×800
 * photo ~48 MiB, a 2400×1600 one ~58-67 MiB (thread-pool.renderer.ts).
 */
const RENDER_IDLE_MS = 2_000;
const RENDER_IDLE_RETAIN_BYTES = 40 * 2 ** 20;

/**
 * Conditional reads arriving together share one read of the generation (a
 * read that started after each of them asked: core/shared/shared-runs.ts),
 * so a burst of 304s costs fewer round trips without a stale answer.
 */
function withSharedGenerationReads(repos: AppDeps['repos']): AppDeps['repos'] {
  const generation = repos.readGeneration;
  return { ...repos, readGeneration: { ...generation, current: sharedRuns(() => generation.current()) } };
}

export async function buildNodeDeps(settings: Settings, options: NodeWiringOptions) {
  const writeLog = options.writeLog ?? ((line: string) => process.stdout.write(`${line}\n`));
  const database = await openNodeDatabase(settings.databaseUrl, {
    migrationsRoot: path.join(options.appRoot, 'drizzle'),
    timeoutMs: settings.databaseTimeoutMs,
  });
  const logger = createJsonLogger(writeLog, { level: settings.logLevel });
  const deferred = createDeferTracker(logger);
  const version = buildInfo('node');
  const releasesDir = options.releasesDir ?? path.join(options.appRoot, 'releases');
  const updates = new UpdateService({
    feed: settings.updateFeedUrl ? createHttpUpdateFeed(settings.updateFeedUrl) : null,
    store: createFileUpdateState(path.join(releasesDir, 'update-state.json')),
    stager: createDirReleaseStager(releasesDir),
    switcher: createSupervisorSwitcher(path.join(releasesDir, 'supervisor.json'), options.supervisor ?? null),
    clock: systemClock,
    logger,
    currentVersion: version.version,
    timeoutMs: 120_000,
  });
  // Variants are made off the event loop, two at a time at most: the threads run at a lower
  // priority (render.worker.ts), so the loop keeps its core even on a machine of two; and one
  // image may hold only one of them, so another image's variant never waits behind it.
  const renderer = createThreadPoolRenderer({
    workerUrl: options.threadEntries?.render ?? renderWorkerUrl(),
    threads: 2,
    timeLimitMs: settings.decodeTimeLimitMs,
    memoryLimitBytes: settings.decodeMemoryLimitMb * 2 ** 20,
    retainBytes: RENDER_RETAIN_BYTES,
    idleMs: RENDER_IDLE_MS,
    idleRetainBytes: RENDER_IDLE_RETAIN_BYTES,
    maxQueue: settings.variantQueueMax,
    lossyWebp: true,
    logError: (message, err) => logger.error(message, err),
  });
  // Bodies are rendered off the event loop too: hostile Markdown costs seconds per MiB.
  const htmlRenderer = createThreadHtmlRenderer({
    workerUrl: options.threadEntries?.html ?? htmlRenderWorkerUrl(),
    timeLimitMs: settings.renderTimeLimitMs,
    maxQueue: 64,
    // markdown-it holds a token object per delimiter: ~270 bytes of heap per byte of hostile Markdown.
    heapLimitMb: Math.max(256, Math.ceil((settings.maxMarkdownBytes * 512) / 2 ** 20)),
    logError: (message, err) => logger.error(message, err),
  });
  const deps: AppDeps = {
    updates,
    settings,
    version,
    repos: withSharedGenerationReads(buildRepositories(database.kit)),
    isUnavailable: database.kit.isConnectionError,
    // One file per process by default; several instances on one server
    // database can share the log there instead.
    activityLog:
      settings.activityLogStore === 'database'
        ? database.activityLog(settings.activityLogMaxBytes)
        : createNdjsonFileActivityLog(path.resolve(settings.activityLogFile), settings.activityLogMaxBytes),
    blobs: nodeBlobStore(settings),
    assets: createDirAssetServer(path.join(options.appRoot, 'admin-qwik', 'dist')),
    logger,
    // Every request gets one database deadline for all its calls (DATABASE_TIMEOUT_MS). SQLite has
    // none (its calls run on the event loop, which no timer interrupts): no budget, and no second
    // AsyncLocalStorage every promise of the request would carry.
    requestScope:
      database.kit.timeoutMs === undefined
        ? asyncRequestScope
        : { run: (context, work) => asyncRequestScope.run(context, () => withDatabaseBudget(work)) },
    // One SQLite file means one instance: budgets in memory. Server databases
    // may sit behind several instances, which must share one budget.
    rateLimiter: database.dialect === 'sqlite' ? createMemoryRateLimiter() : database.rateLimiter,
    peerAddress: (_request, env) => (env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress,
    defer: deferred.defer,
    // Only where this process sees every write; several instances would serve each other's stale reads.
    publicReadCache:
      database.dialect === 'sqlite' && settings.publicReadCache === 'memory' ? createMemoryReadCache() : undefined,
    renderer,
    htmlRenderer,
    webhookTransport: createNodeWebhookTransport(),
    ...commonDeps(settings, options.jwtSecret, logger),
  };
  // Right after a switch: the supervisor's outcome goes to the activity log without waiting for /settings.
  deferred.defer(
    updates.reportOutcome(
      recordUpdateActivity(createActivityService({ ...deps, logError: (m, e) => logger.error(m, e) })),
    ),
  );
  return {
    deps,
    async close() {
      await deferred.drain();
      await renderer.close?.();
      await htmlRenderer.close?.();
      await database.close();
    },
  };
}
