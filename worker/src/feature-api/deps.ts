import type { Settings } from '../config/settings.js';
import type { UpdateService } from '../core/releases/update.service.js';
import type { ActivityLogStore } from '../ports/activity-log.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { DatabaseSessions, EdgeCache } from '../ports/edge-cache.js';
import type { HtmlRenderer } from '../ports/html-renderer.js';
import type { VariantRenderer } from '../ports/image-codec.js';
import type { Mailer } from '../ports/mailer.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { ReadCache } from '../ports/read-cache.js';
import type { Repositories } from '../ports/repositories.js';
import type {
  AssetServer,
  Clock,
  ContentDigest,
  Defer,
  IdGenerator,
  Logger,
  PasswordHasher,
  RequestScope,
  TokenSigner,
} from '../ports/runtime.js';
import type { WebhookTransport } from '../ports/webhook-transport.js';
import type { VersionDto } from '../wire/version.schema.js';

/** Everything the app needs, built once by wiring/ (per process, or per isolate on Workers). */
export interface AppDeps {
  settings: Settings;
  version: VersionDto;
  repos: Repositories;
  blobs: BlobStore;
  /** Makes image variants (photon on both targets: in the request on Workers, in worker threads on Node). */
  renderer: VariantRenderer;
  /** Renders article bodies on writes (in the request on Workers, in a worker thread on Node). */
  htmlRenderer: HtmlRenderer;
  mailer: Mailer;
  clock: Clock;
  ids: IdGenerator;
  passwords: PasswordHasher;
  tokens: TokenSigner;
  assets: AssetServer;
  logger: Logger;
  /** Names the request in the log lines written while it is handled (AsyncLocalStorage on both targets). */
  requestScope: RequestScope;
  /** Names an answer's bytes: the ETag of public reads. */
  digest: ContentDigest;
  rateLimiter: RateLimiter;
  /** The network peer's address: the socket on Node, CF-Connecting-IP on Workers. */
  peerAddress(request: Request, env: unknown): string | undefined;
  /** Work that may finish after the response, when no execution context offers waitUntil. */
  defer: Defer;
  /** Set where one process owns all writes (Node with SQLite): anonymous article reads are served from memory. */
  publicReadCache?: ReadCache;
  /** Workers: public reads kept in each data centre (the Cache API), purged everywhere when configured. */
  edgeCache?: EdgeCache;
  /** Workers: each request in a D1 session (read replicas; the admin's bookmark). */
  dbSessions?: DatabaseSessions;
  /** The database's "not there now" errors, for the ones that escape a repository untranslated (a 503, not a 500). */
  isUnavailable?: (err: unknown) => boolean;
  /** The activity log: an NDJSON file on Node, D1 on Workers. */
  activityLog: ActivityLogStore;
  /** Release feed checks (both targets) and staging (Node only). */
  updates: UpdateService;
  /** Webhook requests: resolved and pinned to a checked address on Node, fetch on Workers. */
  webhookTransport: WebhookTransport;
}
