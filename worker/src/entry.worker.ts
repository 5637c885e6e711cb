import { parseSettings, SettingsError } from './config/settings.js';
import { createApp, type App } from './http/app.js';
import { buildWorkerDeps, type WorkerBindings } from './wiring/worker.js';

/**
 * Settings are parsed and dependencies built once per isolate, on the first
 * request (bindings only exist inside a handler), then reused.
 */
let app: App | undefined;
let settingsError: SettingsError | undefined;

function appFor(env: WorkerBindings & Record<string, unknown>): App | undefined {
  if (app || settingsError) return app;
  try {
    app = createApp(buildWorkerDeps(env, parseSettings(env, 'workers')));
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    settingsError = err;
    console.error(err.message);
  }
  return app;
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const current = appFor(env);
    if (!current) {
      // The problem is in the log; the response names nothing secret.
      return Response.json(
        { error: { code: 'unavailable', message: 'The service is misconfigured; see the Worker log' } },
        { status: 503 },
      );
    }
    return current.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<WorkerBindings & Record<string, unknown>>;

export { RateLimiterObject } from './adapters/rate-limit/durable-object.rate-limiter.js';
