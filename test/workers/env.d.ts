import type { D1Migration } from 'cloudflare:test';

/**
 * The Worker's own bindings, vars and secrets are the generated `Env`
 * (worker/src/worker-configuration.d.ts, `npm run cf:types`); only what the
 * tests add through vitest.config.ts is declared here.
 */
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      ALLOW_LOG_MAILER: string;
    }
  }
}
