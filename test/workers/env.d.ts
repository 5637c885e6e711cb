import type { D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      MEDIA: R2Bucket;
      ASSETS: Fetcher;
      RATE_LIMITER: DurableObjectNamespace<
        import('../../worker/src/adapters/rate-limit/durable-object.rate-limiter.js').RateLimiterObject
      >;
      TEST_MIGRATIONS: D1Migration[];
      JWT_SECRET: string;
    }
  }
}
