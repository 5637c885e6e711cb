import type { D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      MEDIA: R2Bucket;
      ASSETS: Fetcher;
      TEST_MIGRATIONS: D1Migration[];
      JWT_SECRET: string;
    }
  }
}
export {};
