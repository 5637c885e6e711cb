import * as z from 'zod';
import { parseIpRange } from '../wire/ip-address.js';
import { isProduction, PUBLIC_URL_REQUIRED } from './production.js';

/**
 * The one reader of the environment (docs/configuration.md). Parsed once at
 * start-up into a typed object that is passed down; nothing else reads env.
 */

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const httpUrl = z
  .url({ error: 'must be an http(s) URL' })
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
  .transform((u) => u.replace(/\/+$/, ''));

/** `LIMIT/SECONDS`, e.g. `5/900`: five per fifteen minutes. */
const rateRule = (name: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,5}\/[1-9][0-9]{0,6}$/, `${name} must look like 5/900 (requests per seconds)`)
    .transform((v) => {
      const [limit, windowSeconds] = v.split('/').map(Number) as [number, number];
      return { limit, windowSeconds };
    });

/** `*`, or a comma list of origins (`https://site.example`, no path): who may call the API from a browser. */
const corsOrigins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => (list.length === 1 && list[0] === '*') || list.every((o) => isOrigin(o)),
    'CORS_ORIGINS must be * or a comma list of origins such as https://site.example (scheme, host, port; no path)',
  )
  .transform((list) =>
    list[0] === '*' ? { any: true, origins: [] } : { any: false, origins: list.map((o) => new URL(o).origin) },
  );

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    return /^https?:$/.test(url.protocol) && bare && !/^https?:\/\/[^/]*\/./i.test(value);
  } catch {
    return false;
  }
}

const RawSettingsSchema = z.object({
  PORT: wholeNumber('PORT', 1, 65535).default(8787),
  /** Node: the listen address. */
  HOST: z
    .string()
    .max(253)
    .regex(/^[A-Za-z0-9.:%_-]+$/, 'must be a host name or an IP address, such as 127.0.0.1 or ::')
    .default('0.0.0.0'),
  /**
   * Unset: the origin each request was sent to (defaultPublicUrl outside
   * requests); required in production (isProduction).
   */
  PUBLIC_URL: httpUrl.optional(),
  /** `production` makes PUBLIC_URL required (as does running under the supervisor, CMS_SUPERVISED=1). */
  NODE_ENV: z.string().optional(),
  CMS_SUPERVISED: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(
      /^(sqlite:.+|(mysql|mariadb):\/\/.+|postgres(ql)?:\/\/.+)$/,
      'must be sqlite:PATH, mysql://…, mariadb://… or postgres://…',
    )
    .default('sqlite:./data/cms.db'),
  STORAGE_URL: z
    .string()
    .regex(/^(file:.+|s3:\/\/[^/?]+.*)$/, 'must be file:DIR or s3://BUCKET?endpoint=…&region=…')
    .default('file:./data/uploads'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The AWS SDKs' names, read where the S3_* ones (which win) are unset. */
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The S3 endpoint and region where STORAGE_URL names none (its own parameters win). */
  AWS_ENDPOINT_URL_S3: z
    .url({ error: 'must be an http(s) URL' })
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
    .optional(),
  AWS_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'must be lower-case letters, digits and "-"')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, 'must be smtp://user:pass@host:port or smtps://…')
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).default('CMS <no-reply@localhost>'),
  TRUST_PROXY: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((entry) => parseIpRange(entry) !== null),
      'must be a comma list of IP addresses or CIDR ranges (e.g. 10.0.0.0/8, fd00::/8, 127.0.0.1)',
    )
    .optional(),
  /** Which header the trusted proxy writes the client's address into; see http/client-address.ts. */
  TRUST_PROXY_HEADER: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(['x-forwarded-for', 'x-real-ip'], { error: 'must be x-forwarded-for or x-real-ip' }))
    .default('x-forwarded-for'),
  MAX_UPLOAD_BYTES: wholeNumber('MAX_UPLOAD_BYTES', 1024, 1024 ** 3).default(10_485_760),
  /** Every JSON body but the article writes (413 above it, enforced while streaming). */
  MAX_JSON_BYTES: wholeNumber('MAX_JSON_BYTES', 1024, 64 * 1024 ** 2).default(131_072),
  /** Article create, edit and SEO bodies: no length rule for the body, only this memory bound. */
  MAX_ARTICLE_BYTES: wholeNumber('MAX_ARTICLE_BYTES', 1024, 1024 ** 3).default(10_485_760),
  /**
   * The largest article body (UTF-8 bytes) that is rendered to HTML, any
   * format; a larger one is refused (413). Hostile Markdown costs about
   * 3-9 ms of CPU per KB (docs/reliability.md), so this bounds a write's render.
   */
  MAX_RENDER_BYTES: wholeNumber('MAX_RENDER_BYTES', 1024, 64 * 1024 ** 2).default(524_288),
  /**
   * The same for Markdown, the costly format: markdown-it holds ~270 bytes
   * of heap per byte of hostile Markdown while it renders (a Worker has 128 MB).
   */
  MAX_MARKDOWN_BYTES: wholeNumber('MAX_MARKDOWN_BYTES', 1024, 64 * 1024 ** 2).default(131_072),
  /** Revisions kept per article: the newest this many (the newest one always stays). */
  REVISIONS_MAX_COUNT: wholeNumber('REVISIONS_MAX_COUNT', 1, 1000).default(50),
  /** …and the newest while their fields add up to at most this many bytes (the newest one always stays). */
  REVISIONS_MAX_BYTES: wholeNumber('REVISIONS_MAX_BYTES', 1024, 1024 ** 3).default(10 * 1024 ** 2),
  /** Node only: how long rendering one body may take in its worker thread before it is stopped and refused. */
  RENDER_TIME_LIMIT_MS: wholeNumber('RENDER_TIME_LIMIT_MS', 100, 600_000).default(10_000),
  /** The pixel cap that refuses decompression bombs from the header. */
  MAX_IMAGE_PIXELS: wholeNumber('MAX_IMAGE_PIXELS', 1, 1_000_000_000).default(50_000_000),
  /** The preset widths `?w=` accepts: up to 12 distinct widths from 16 to 4096, ascending. */
  IMAGE_VARIANT_WIDTHS: z
    .string()
    .regex(/^[0-9]{2,4}(,[0-9]{2,4}){0,11}$/, 'IMAGE_VARIANT_WIDTHS must be a comma list of widths, e.g. 320,640,1280')
    .transform((v) => v.split(',').map(Number))
    .refine(
      (ws) => ws.every((w, i) => w >= 16 && w <= 4096 && (i === 0 || w > ws[i - 1]!)),
      'IMAGE_VARIANT_WIDTHS must be ascending widths from 16 to 4096',
    )
    .default([160, 320, 640, 960, 1280, 1920]),
  /**
   * `off`: this server makes no variants (a Workers plan whose CPU limit
   * cannot decode a photo, without an Images binding): answers list none
   * (empty `srcset`, no presets) and `?w=`/`?format=` are refused.
   */
  IMAGE_VARIANTS: z.enum(['on', 'off']).default('on'),
  /** Node only: how long making one image variant may take in its worker thread before it is stopped and refused. */
  DECODE_TIME_LIMIT_MS: wholeNumber('DECODE_TIME_LIMIT_MS', 100, 600_000).default(5000),
  /** Node only: how much memory (JS heap and wasm) one variant's worker thread may hold before it is stopped and refused. */
  DECODE_MEMORY_LIMIT_MB: wholeNumber('DECODE_MEMORY_LIMIT_MB', 64, 65_536).default(512),
  /** Node only: variants waiting for a render thread; beyond, a 503 with Retry-After. One image gets a quarter. */
  VARIANT_QUEUE_MAX: wholeNumber('VARIANT_QUEUE_MAX', 4, 10_000).default(32),
  /** Node with MySQL/PostgreSQL, how long one database call may take before it is a 503. */
  DATABASE_TIMEOUT_MS: wholeNumber('DATABASE_TIMEOUT_MS', 100, 600_000).default(1500),
  ACTIVITY_LOG_MAX_BYTES: wholeNumber('ACTIVITY_LOG_MAX_BYTES', 4096, 1024 ** 4).default(10_485_760),
  /** Node only, the NDJSON file of the activity log. */
  ACTIVITY_LOG_FILE: z.string().min(1).max(4096).default('./data/activity.ndjson'),
  /** Node only. `database` shares one log between instances on MySQL/PostgreSQL. */
  ACTIVITY_LOG_STORE: z.enum(['file', 'database'], { error: 'must be file or database' }).default('file'),
  /**
   * Node with SQLite only: `memory` answers repeated anonymous article reads
   * from memory until the next write; `off` always asks the database (what
   * MySQL/PostgreSQL always do; the benchmark's uncached reads).
   */
  PUBLIC_READ_CACHE: z.enum(['memory', 'off'], { error: 'must be memory or off' }).default('memory'),
  UPDATE_FEED_URL: httpUrl.optional(),
  /** The per-client budgets. Failed logins only count. */
  RATE_LIMIT_LOGIN: rateRule('RATE_LIMIT_LOGIN').default({ limit: 5, windowSeconds: 900 }),
  RATE_LIMIT_PASSWORD_RESET: rateRule('RATE_LIMIT_PASSWORD_RESET').default({ limit: 5, windowSeconds: 3600 }),
  RATE_LIMIT_VERIFICATION: rateRule('RATE_LIMIT_VERIFICATION').default({ limit: 10, windowSeconds: 900 }),
  RATE_LIMIT_REGISTER: rateRule('RATE_LIMIT_REGISTER').default({ limit: 5, windowSeconds: 3600 }),
  /** Origins allowed to call the API from a browser, besides every site's baseUrl. */
  CORS_ORIGINS: corsOrigins.optional(),
  /** Node only: how often the scheduled jobs run (publishing due articles, webhook deliveries, the purge check). */
  SCHEDULER_INTERVAL_SECONDS: wholeNumber('SCHEDULER_INTERVAL_SECONDS', 1, 3600).default(60),
  /** The lowest level of log line written: access lines are info. */
  LOG_LEVEL: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be debug, info, warn or error' }))
    .default('info'),
  /** Workers only: lets a Worker without SMTP_URL start and write e-mails (codes included) to its logs. */
  ALLOW_LOG_MAILER: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  /** Lets webhooks target loopback, private and link-local addresses (development, tests). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  /** How long a shared cache (a CDN, the Workers cache) may keep a public read: `s-maxage` (docs/caching.md). */
  PUBLIC_CACHE_SECONDS: wholeNumber('PUBLIC_CACHE_SECONDS', 0, 31_536_000).default(60),
  /** How long past that a shared cache may still answer while it fetches a fresh copy: `stale-while-revalidate`. */
  PUBLIC_STALE_SECONDS: wholeNumber('PUBLIC_STALE_SECONDS', 0, 31_536_000).default(60),
  /** Workers: the zone whose cache a write purges everywhere (with CACHE_PURGE_API_TOKEN, a secret). */
  CACHE_PURGE_ZONE_ID: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'CACHE_PURGE_ZONE_ID must be a zone id (32 hexadecimal characters)')
    .optional(),
  CACHE_PURGE_API_TOKEN: z.string().min(20, 'CACHE_PURGE_API_TOKEN must be an API token').optional(),
});

export type Target = 'workers' | 'node';

export interface Settings {
  target: Target;
  port: number;
  /** Node: the address it listens on. */
  host: string;
  publicUrl: string;
  /** PUBLIC_URL was set: answers' links use it; otherwise they use the request's own origin. */
  publicUrlConfigured: boolean;
  databaseUrl: string;
  storageUrl: string;
  /** S3_ACCESS_KEY_ID, else AWS_ACCESS_KEY_ID; likewise the secret. */
  s3AccessKeyId: string | undefined;
  s3SecretAccessKey: string | undefined;
  /** AWS_ENDPOINT_URL_S3 and AWS_REGION: used where STORAGE_URL names no endpoint or region. */
  s3Endpoint: string | undefined;
  s3Region: string | undefined;
  /** Undefined only on Node before the entry point generated or loaded one. */
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Addresses and CIDR ranges of the proxies whose word about the client is believed. */
  trustProxy: string[];
  trustProxyHeader: 'x-forwarded-for' | 'x-real-ip';
  maxUploadBytes: number;
  maxJsonBytes: number;
  maxArticleBytes: number;
  maxRenderBytes: number;
  maxMarkdownBytes: number;
  renderTimeLimitMs: number;
  revisionsMaxCount: number;
  revisionsMaxBytes: number;
  maxImagePixels: number;
  /** The widths variants are made at; empty when IMAGE_VARIANTS=off (no variant is made or listed). */
  imageVariantWidths: number[];
  decodeTimeLimitMs: number;
  decodeMemoryLimitMb: number;
  variantQueueMax: number;
  activityLogMaxBytes: number;
  databaseTimeoutMs: number;
  activityLogFile: string;
  activityLogStore: 'file' | 'database';
  publicReadCache: 'memory' | 'off';
  updateFeedUrl: string | undefined;
  rateLimits: Record<'login' | 'passwordReset' | 'verification' | 'register', { limit: number; windowSeconds: number }>;
  /** CORS_ORIGINS: `any` for `*`; the sites' baseUrl origins are allowed besides these. */
  corsOrigins: { any: boolean; origins: string[] };
  schedulerIntervalSeconds: number;
  webhookAllowPrivateTargets: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** The shared caches' lifetimes of a public read (docs/caching.md). */
  publicCache: { seconds: number; staleSeconds: number };
  /** Workers: the zone and API token (Cache Purge permission) that purge the edge cache everywhere. */
  cachePurge: { zoneId: string; apiToken: string } | undefined;
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/** Unset and empty are the same: `FOO=` in a .env file means "use the default". */
function presentStrings(raw: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(RawSettingsSchema.shape)) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}

/**
 * Where links in e-mails and preview links point when PUBLIC_URL is unset:
 * on Node the server's own address (its HOST, or localhost when it listens on
 * every interface, and its PORT), so a server on another port still sends
 * links that work; on Workers `wrangler dev`'s address.
 */
export function defaultPublicUrl(target: Target, host: string, port: number): string {
  if (target === 'workers') return 'http://localhost:8787';
  const bare = host.replace(/^\[|\]$/g, '');
  const name =
    bare === '0.0.0.0' || bare === '::' || bare === '' ? 'localhost' : bare.includes(':') ? `[${bare}]` : bare;
  return `http://${name}:${port}`;
}

/** `raw`: process.env on Node, the Worker's Env (vars, secrets; bindings are ignored) on Workers. */
export function parseSettings(raw: object, target: Target): Settings {
  const result = RawSettingsSchema.safeParse(presentStrings(raw));
  if (!result.success) {
    throw new SettingsError(result.error.issues.map((i) => `${String(i.path[0] ?? 'settings')}: ${i.message}`));
  }
  const s = result.data;
  if (target === 'workers' && !s.JWT_SECRET) {
    throw new SettingsError(['JWT_SECRET: required on Workers (wrangler secret put JWT_SECRET)']);
  }
  if (!s.CACHE_PURGE_ZONE_ID !== !s.CACHE_PURGE_API_TOKEN) {
    throw new SettingsError(['CACHE_PURGE_ZONE_ID / CACHE_PURGE_API_TOKEN: set both, or neither']);
  }
  // The log mailer writes verification and reset codes into the log; on
  // Workers that log is Workers Logs, kept and readable in the dashboard.
  if (target === 'workers' && !s.SMTP_URL && s.ALLOW_LOG_MAILER !== 'true') {
    throw new SettingsError([
      'SMTP_URL: required on Workers (wrangler secret put SMTP_URL): without it every verification and reset code would be written to the Worker’s logs. ALLOW_LOG_MAILER=true allows that, for local development and tests only',
    ]);
  }
  if (!s.PUBLIC_URL && isProduction(target, s)) throw new SettingsError([PUBLIC_URL_REQUIRED]);
  const s3AccessKeyId = s.S3_ACCESS_KEY_ID ?? s.AWS_ACCESS_KEY_ID;
  const s3SecretAccessKey = s.S3_SECRET_ACCESS_KEY ?? s.AWS_SECRET_ACCESS_KEY;
  if (s.STORAGE_URL.startsWith('s3:') && (!s3AccessKeyId || !s3SecretAccessKey)) {
    throw new SettingsError([
      'S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY): required when STORAGE_URL is s3://…',
    ]);
  }
  return {
    target,
    port: s.PORT,
    host: s.HOST,
    publicUrl: s.PUBLIC_URL ?? defaultPublicUrl(target, s.HOST, s.PORT),
    publicUrlConfigured: s.PUBLIC_URL !== undefined,
    databaseUrl: s.DATABASE_URL,
    storageUrl: s.STORAGE_URL,
    s3AccessKeyId,
    s3SecretAccessKey,
    s3Endpoint: s.AWS_ENDPOINT_URL_S3,
    s3Region: s.AWS_REGION,
    jwtSecret: s.JWT_SECRET,
    smtpUrl: s.SMTP_URL,
    mailFrom: s.MAIL_FROM,
    trustProxy: s.TRUST_PROXY ?? [],
    trustProxyHeader: s.TRUST_PROXY_HEADER,
    maxUploadBytes: s.MAX_UPLOAD_BYTES,
    maxJsonBytes: s.MAX_JSON_BYTES,
    maxArticleBytes: s.MAX_ARTICLE_BYTES,
    maxRenderBytes: s.MAX_RENDER_BYTES,
    maxMarkdownBytes: Math.min(s.MAX_MARKDOWN_BYTES, s.MAX_RENDER_BYTES),
    renderTimeLimitMs: s.RENDER_TIME_LIMIT_MS,
    revisionsMaxCount: s.REVISIONS_MAX_COUNT,
    revisionsMaxBytes: s.REVISIONS_MAX_BYTES,
    maxImagePixels: s.MAX_IMAGE_PIXELS,
    imageVariantWidths: s.IMAGE_VARIANTS === 'off' ? [] : s.IMAGE_VARIANT_WIDTHS,
    decodeTimeLimitMs: s.DECODE_TIME_LIMIT_MS,
    decodeMemoryLimitMb: s.DECODE_MEMORY_LIMIT_MB,
    variantQueueMax: s.VARIANT_QUEUE_MAX,
    activityLogMaxBytes: s.ACTIVITY_LOG_MAX_BYTES,
    databaseTimeoutMs: s.DATABASE_TIMEOUT_MS,
    activityLogFile: s.ACTIVITY_LOG_FILE,
    activityLogStore: s.ACTIVITY_LOG_STORE,
    publicReadCache: s.PUBLIC_READ_CACHE,
    updateFeedUrl: s.UPDATE_FEED_URL,
    rateLimits: {
      login: s.RATE_LIMIT_LOGIN,
      passwordReset: s.RATE_LIMIT_PASSWORD_RESET,
      verification: s.RATE_LIMIT_VERIFICATION,
      register: s.RATE_LIMIT_REGISTER,
    },
    corsOrigins: s.CORS_ORIGINS ?? { any: false, origins: [] },
    schedulerIntervalSeconds: s.SCHEDULER_INTERVAL_SECONDS,
    webhookAllowPrivateTargets: s.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    logLevel: s.LOG_LEVEL,
    publicCache: { seconds: s.PUBLIC_CACHE_SECONDS, staleSeconds: s.PUBLIC_STALE_SECONDS },
    cachePurge:
      s.CACHE_PURGE_ZONE_ID && s.CACHE_PURGE_API_TOKEN
        ? { zoneId: s.CACHE_PURGE_ZONE_ID, apiToken: s.CACHE_PURGE_API_TOKEN }
        : undefined,
  };
}
