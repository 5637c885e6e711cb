import { type App, createApp } from './app/app.js';
import { scheduledJobs } from './app/services.js';
import { parseSettings, SettingsError } from './config/settings.js';
import type { AppDeps } from './feature-api/deps.js';
import { newRequestId } from './http/middleware/request-log.js';
import { withSecurityHeaders } from './http/middleware/security-headers.js';
import { buildWorkerDeps } from './wiring/worker.js';

/**
 * Settings are parsed and dependencies built once per isolate, on the first
 * request (bindings only exist inside a handler), then reused.
 */
let app: App | undefined;
let deps: AppDeps | undefined;
let settingsError: SettingsError | undefined;

function appFor(env: Env): App | undefined {
  if (app || settingsError) return app;
  try {
    deps = buildWorkerDeps(env, parseSettings(env, 'workers'));
    app = createApp(deps);
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    settingsError = err;
    console.error(
      JSON.stringify({
        level: 'error',
        at: new Date().toISOString(),
        message: 'Invalid settings',
        problems: err.problems,
      }),
    );
  }
  return app;
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const current = appFor(env);
    if (!current) {
      // The problem is in the log; the response names nothing secret.
      return withSecurityHeaders(
        Response.json(
          { error: { code: 'unavailable', message: 'The service is misconfigured; see the Worker log' } },
          { status: 503 },
        ),
        newRequestId(),
      );
    }
    return current.fetch(request, env, ctx);
  },

  /** The cron trigger (wrangler.toml): every feature's jobs, e.g. the purge when enabled and due (docs/architecture.md#rule-6). */
  async scheduled(controller, env, ctx): Promise<void> {
    if (!appFor(env) || !deps) return;
    const current = deps;
    ctx.waitUntil(
      scheduledJobs(current)(new Date(controller.scheduledTime)).then(
        () => undefined,
        (err) => current.logger.error('scheduled jobs failed', err),
      ),
    );
  },
} satisfies ExportedHandler<Env>;

export { RateLimiterObject } from './adapters/rate-limit/durable-object.rate-limiter.js';
