import { describe, expect, it } from 'vitest';
import { parseSettings, SettingsError } from '../../worker/src/config/settings.js';

const problemsOf = (raw: Record<string, unknown>, target: 'node' | 'workers' = 'node'): string[] => {
  try {
    parseSettings(raw, target);
  } catch (err) {
    if (err instanceof SettingsError) return err.problems;
    throw err;
  }
  return [];
};

describe('parseSettings', () => {
  it('gives the defaults of docs/configuration.md on Node', () => {
    expect(parseSettings({}, 'node')).toEqual({
      target: 'node',
      port: 8787,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:8787',
      publicUrlConfigured: false,
      databaseUrl: 'sqlite:./data/cms.db',
      storageUrl: 'file:./data/uploads',
      s3AccessKeyId: undefined,
      s3SecretAccessKey: undefined,
      jwtSecret: undefined,
      smtpUrl: undefined,
      mailFrom: 'CMS <no-reply@localhost>',
      trustProxy: [],
      trustProxyHeader: 'x-forwarded-for',
      maxUploadBytes: 10_485_760,
      maxJsonBytes: 131_072,
      maxArticleBytes: 10_485_760,
      maxRenderBytes: 524_288,
      maxMarkdownBytes: 131_072,
      renderTimeLimitMs: 10_000,
      revisionsMaxCount: 50,
      revisionsMaxBytes: 10_485_760,
      maxImagePixels: 50_000_000,
      imageVariantWidths: [160, 320, 640, 960, 1280, 1920],
      decodeTimeLimitMs: 5000,
      decodeMemoryLimitMb: 512,
      variantQueueMax: 32,
      activityLogMaxBytes: 10_485_760,
      databaseTimeoutMs: 1500,
      activityLogFile: './data/activity.ndjson',
      activityLogStore: 'file',
      publicReadCache: 'memory',
      updateFeedUrl: undefined,
      rateLimits: {
        login: { limit: 5, windowSeconds: 900 },
        passwordReset: { limit: 5, windowSeconds: 3600 },
        verification: { limit: 10, windowSeconds: 900 },
        register: { limit: 5, windowSeconds: 3600 },
      },
      corsOrigins: { any: false, origins: [] },
      schedulerIntervalSeconds: 60,
      webhookAllowPrivateTargets: false,
      logLevel: 'info',
      publicCache: { seconds: 60, staleSeconds: 60 },
      cachePurge: undefined,
    });
  });

  it('reads the public cache lifetimes (docs/caching.md)', () => {
    const s = parseSettings({ PUBLIC_CACHE_SECONDS: '0', PUBLIC_STALE_SECONDS: '86400' }, 'node');
    expect(s.publicCache).toEqual({ seconds: 0, staleSeconds: 86_400 });
    expect(problemsOf({ PUBLIC_CACHE_SECONDS: '-1', PUBLIC_STALE_SECONDS: '1.5' })).toEqual([
      expect.stringMatching(/^PUBLIC_CACHE_SECONDS:/),
      expect.stringMatching(/^PUBLIC_STALE_SECONDS:/),
    ]);
    const zoneId = 'a'.repeat(32);
    expect(
      parseSettings({ CACHE_PURGE_ZONE_ID: zoneId, CACHE_PURGE_API_TOKEN: 't'.repeat(40) }, 'node').cachePurge,
    ).toEqual({ zoneId, apiToken: 't'.repeat(40) });
    expect(problemsOf({ CACHE_PURGE_ZONE_ID: zoneId })).toEqual([expect.stringMatching(/set both, or neither/)]);
    expect(problemsOf({ CACHE_PURGE_ZONE_ID: 'zone', CACHE_PURGE_API_TOKEN: 't'.repeat(40) })).toEqual([
      expect.stringMatching(/^CACHE_PURGE_ZONE_ID:/),
    ]);
  });

  it('reads CORS_ORIGINS as * or a list of origins, and the delivery settings', () => {
    expect(parseSettings({ CORS_ORIGINS: '*' }, 'node').corsOrigins).toEqual({ any: true, origins: [] });
    expect(
      parseSettings({ CORS_ORIGINS: 'https://Site.Example, http://localhost:3000/,https://a.example:443' }, 'node')
        .corsOrigins,
    ).toEqual({ any: false, origins: ['https://site.example', 'http://localhost:3000', 'https://a.example'] });
    for (const bad of [
      'https://a.example/path',
      'ftp://a.example',
      'a.example',
      '*,https://a.example',
      'https://u:p@a.example',
    ]) {
      expect(problemsOf({ CORS_ORIGINS: bad }), bad).toEqual([expect.stringMatching(/^CORS_ORIGINS:/)]);
    }
    const s = parseSettings({ SCHEDULER_INTERVAL_SECONDS: '15', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, 'node');
    expect([s.schedulerIntervalSeconds, s.webhookAllowPrivateTargets]).toEqual([15, true]);
    expect(problemsOf({ SCHEDULER_INTERVAL_SECONDS: '0' })).toEqual([expect.stringMatching(/^SCHEDULER_INTERVAL/)]);
    expect(problemsOf({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toEqual([
      expect.stringMatching(/^WEBHOOK_ALLOW_PRIVATE_TARGETS:/),
    ]);
    expect(parseSettings({ PUBLIC_READ_CACHE: 'off' }, 'node').publicReadCache).toBe('off');
    expect(problemsOf({ PUBLIC_READ_CACHE: 'redis' })).toEqual([expect.stringMatching(/^PUBLIC_READ_CACHE:/)]);
  });

  it('takes the AWS names for the S3 settings where the S3_* ones are unset (those win)', () => {
    const aws = {
      STORAGE_URL: 's3://media',
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'aws-secret',
      AWS_ENDPOINT_URL_S3: 'http://seaweedfs:8333',
      AWS_REGION: 'eu-central-1',
    };
    expect(parseSettings(aws, 'node')).toMatchObject({
      s3AccessKeyId: 'AKIAEXAMPLE',
      s3SecretAccessKey: 'aws-secret',
      s3Endpoint: 'http://seaweedfs:8333',
      s3Region: 'eu-central-1',
    });
    const both = parseSettings({ ...aws, S3_ACCESS_KEY_ID: 'cms-key', S3_SECRET_ACCESS_KEY: 'cms-secret' }, 'node');
    expect([both.s3AccessKeyId, both.s3SecretAccessKey]).toEqual(['cms-key', 'cms-secret']);
    expect(problemsOf({ STORAGE_URL: 's3://media', AWS_ACCESS_KEY_ID: 'only-the-id' })).toEqual([
      expect.stringMatching(/AWS_SECRET_ACCESS_KEY/),
    ]);
    expect(problemsOf({ AWS_ENDPOINT_URL_S3: 'ftp://x', AWS_REGION: 'EU WEST' }).sort()).toEqual([
      expect.stringMatching(/^AWS_ENDPOINT_URL_S3:/),
      expect.stringMatching(/^AWS_REGION:/),
    ]);
  });

  it('reads LOG_LEVEL as debug, info, warn or error, in any case', () => {
    expect(parseSettings({ LOG_LEVEL: 'WARN' }, 'node').logLevel).toBe('warn');
    expect(parseSettings({ LOG_LEVEL: 'debug' }, 'node').logLevel).toBe('debug');
    expect(problemsOf({ LOG_LEVEL: 'verbose' })).toEqual([expect.stringMatching(/^LOG_LEVEL:/)]);
  });

  it('reads rate limits as LIMIT/SECONDS', () => {
    expect(parseSettings({ RATE_LIMIT_LOGIN: '3/60' }, 'node').rateLimits.login).toEqual({
      limit: 3,
      windowSeconds: 60,
    });
    for (const bad of ['abc', '0/60', '5', '5/0', '-1/60', '5/1.5']) {
      expect(problemsOf({ RATE_LIMIT_LOGIN: bad }), bad).toEqual([expect.stringMatching(/^RATE_LIMIT_LOGIN:/)]);
    }
  });

  it('reads every setting and ignores unrelated variables', () => {
    const s = parseSettings(
      {
        PORT: '9000',
        PUBLIC_URL: 'https://cms.example.com/',
        DATABASE_URL: 'postgres://u:p@db/cms',
        STORAGE_URL: 's3://media?endpoint=http://s3:9000&region=eu&forcePathStyle=true',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        JWT_SECRET: 'x'.repeat(32),
        SMTP_URL: 'smtps://u:p@mail:465',
        TRUST_PROXY: '10.0.0.1, ::1',
        MAX_UPLOAD_BYTES: '2048',
        DECODE_TIME_LIMIT_MS: '2500',
        DECODE_MEMORY_LIMIT_MB: '256',
        VARIANT_QUEUE_MAX: '64',
        MAX_JSON_BYTES: '4096',
        MAX_ARTICLE_BYTES: '1048576',
        UPDATE_FEED_URL: 'https://releases.example.com/feed.json',
        HOME: '/root',
      },
      'node',
    );
    expect(s).toMatchObject({
      port: 9000,
      publicUrl: 'https://cms.example.com',
      publicUrlConfigured: true,
      trustProxy: ['10.0.0.1', '::1'],
      maxUploadBytes: 2048,
      decodeTimeLimitMs: 2500,
      decodeMemoryLimitMb: 256,
      variantQueueMax: 64,
      maxJsonBytes: 4096,
      maxArticleBytes: 1_048_576,
    });
  });

  it('points links at the server’s own address when PUBLIC_URL is unset', () => {
    const url = (env: Record<string, string>, target: 'node' | 'workers' = 'node') =>
      parseSettings({ JWT_SECRET: 'x'.repeat(32), ALLOW_LOG_MAILER: 'true', ...env }, target).publicUrl;
    expect(url({})).toBe('http://localhost:8787');
    expect(url({ PORT: '9000' })).toBe('http://localhost:9000');
    expect(url({ PORT: '9000', HOST: '127.0.0.1' })).toBe('http://127.0.0.1:9000');
    expect(url({ PORT: '9000', HOST: '::' })).toBe('http://localhost:9000');
    expect(url({ PORT: '9000', HOST: '::1' })).toBe('http://[::1]:9000');
    expect(url({ PORT: '9000', HOST: 'cms.internal' })).toBe('http://cms.internal:9000');
    expect(url({ PORT: '9000', PUBLIC_URL: 'https://cms.example.com' })).toBe('https://cms.example.com');
    // Workers: always set (wrangler.toml sets it for wrangler dev).
    expect(url({ PORT: '9000', PUBLIC_URL: 'http://localhost:8787' }, 'workers')).toBe('http://localhost:8787');
    expect(problemsOf({ HOST: 'a b' })).toEqual([expect.stringMatching(/^HOST:/)]);
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({
      PORT: '70000',
      PUBLIC_URL: 'ftp://x',
      DATABASE_URL: 'oracle://x',
      MAX_UPLOAD_BYTES: '1e6',
      MAX_JSON_BYTES: '100',
      MAX_ARTICLE_BYTES: '10MB',
      TRUST_PROXY: 'proxy.local',
      JWT_SECRET: 'short',
      DECODE_TIME_LIMIT_MS: '10',
      DECODE_MEMORY_LIMIT_MB: 'lots',
      VARIANT_QUEUE_MAX: '2',
    });
    for (const name of [
      'PORT',
      'PUBLIC_URL',
      'DATABASE_URL',
      'MAX_UPLOAD_BYTES',
      'TRUST_PROXY',
      'JWT_SECRET',
      'DECODE_TIME_LIMIT_MS',
      'DECODE_MEMORY_LIMIT_MB',
      'VARIANT_QUEUE_MAX',
      'MAX_JSON_BYTES',
      'MAX_ARTICLE_BYTES',
    ]) {
      expect(
        problems.some((p) => p.startsWith(`${name}:`)),
        name,
      ).toBe(true);
    }
  });

  it('takes proxy addresses and CIDR ranges, and the header the proxy writes', () => {
    const s = parseSettings(
      { TRUST_PROXY: '10.0.0.0/8, 172.16.0.0/12,fd00::/8, ::1, 192.168.1.7/32', TRUST_PROXY_HEADER: 'X-Real-IP' },
      'node',
    );
    expect(s.trustProxy).toEqual(['10.0.0.0/8', '172.16.0.0/12', 'fd00::/8', '::1', '192.168.1.7/32']);
    expect(s.trustProxyHeader).toBe('x-real-ip');
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0.0/',
      '10.0.0.0/8/8',
      'fd00::/129',
      '10.0.0/8',
      '127.1',
      'proxy.local/8',
      '::/-1',
      '10.0.0.0/8x',
      ':::/8',
    ]) {
      expect(problemsOf({ TRUST_PROXY: bad }), bad).toEqual([expect.stringMatching(/^TRUST_PROXY: .*CIDR/)]);
    }
    expect(problemsOf({ TRUST_PROXY_HEADER: 'forwarded' })).toEqual([expect.stringMatching(/^TRUST_PROXY_HEADER:/)]);
  });

  it('treats empty values as unset', () => {
    expect(parseSettings({ PORT: '', SMTP_URL: '  ' }, 'node')).toMatchObject({ port: 8787, smtpUrl: undefined });
  });

  it('requires JWT_SECRET on Workers and S3 credentials with s3:// storage', () => {
    expect(problemsOf({}, 'workers')).toEqual([expect.stringMatching(/^JWT_SECRET:/)]);
    expect(problemsOf({ STORAGE_URL: 's3://b?endpoint=http://x' })).toEqual([
      expect.stringMatching(/S3_ACCESS_KEY_ID/),
    ]);
  });

  it('ignores non-string values, such as Workers bindings', () => {
    const env = { DB: {}, JWT_SECRET: 'y'.repeat(40), ALLOW_LOG_MAILER: 'true', PUBLIC_URL: 'https://cms.example' };
    expect(parseSettings(env, 'workers').jwtSecret).toBe('y'.repeat(40));
  });

  it('refuses a Worker without SMTP_URL (codes would go to its logs) unless ALLOW_LOG_MAILER=true; Node keeps the log mailer', () => {
    const secret = { JWT_SECRET: 'y'.repeat(40), PUBLIC_URL: 'https://cms.example' };
    expect(problemsOf(secret, 'workers')).toEqual([expect.stringMatching(/^SMTP_URL: required on Workers/)]);
    expect(problemsOf({ ...secret, ALLOW_LOG_MAILER: 'false' }, 'workers')).toHaveLength(1);
    expect(problemsOf({ ...secret, ALLOW_LOG_MAILER: 'yes' }, 'workers')).toEqual([
      expect.stringMatching(/^ALLOW_LOG_MAILER:/),
    ]);
    expect(problemsOf({ ...secret, ALLOW_LOG_MAILER: 'true' }, 'workers')).toEqual([]);
    expect(problemsOf({ ...secret, SMTP_URL: 'smtps://u:p@mail.example:465' }, 'workers')).toEqual([]);
    expect(problemsOf({}, 'node')).toEqual([]);
  });

  it('stops a production start without PUBLIC_URL, naming it: answers would otherwise follow the Host header', () => {
    const secret = { JWT_SECRET: 'y'.repeat(40), ALLOW_LOG_MAILER: 'true' };
    for (const [env, target] of [
      [{ NODE_ENV: 'production' }, 'node'],
      [{ CMS_SUPERVISED: '1' }, 'node'],
      [{}, 'workers'],
    ] as const) {
      expect(problemsOf({ ...secret, ...env }, target)).toEqual([
        expect.stringMatching(/^PUBLIC_URL: required in production/),
      ]);
      expect(problemsOf({ ...secret, ...env, PUBLIC_URL: 'https://cms.example' }, target)).toEqual([]);
    }
    // Development keeps following the request's origin (docs/configuration.md).
    expect(problemsOf({ NODE_ENV: 'development' })).toEqual([]);
    expect(parseSettings({}, 'node').publicUrlConfigured).toBe(false);
  });
});
