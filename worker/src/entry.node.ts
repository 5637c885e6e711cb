import { writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { flushCompileCache } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener, RequestError } from '@hono/node-server';
import { LingeringResponse } from './adapters/runtime/lingering-close.node.js';
import { createApp } from './app/app.js';
import { FREQUENT_JOBS_MS, frequentJobs, scheduledJobs } from './app/services.js';
import { loadDotEnv } from './config/env-file.node.js';
import { loadOrCreateJwtSecret } from './config/jwt-secret.node.js';
import { parseSettings, SettingsError } from './config/settings.js';
import { nodeListenerAnswers } from './http/app.js';
import { adapterErrorResponse } from './http/malformed-request.js';
import { newRequestId } from './http/middleware/request-log.js';
import { buildNodeDeps } from './wiring/node.js';

/** Graceful stop: stop accepting, let requests in flight finish, then close the database. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Output to a file on a full disk must not take the server down: Node throws
 * an unhandled 'error' (ENOSPC) from a stdout that is a file. Lines that
 * cannot be written are lost; once stdout has failed, later lines are tried
 * directly, so logging resumes when space is freed. Found by the reliability
 * run (docs/reliability.md, disk full).
 */
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
function writeOut(text: string): void {
  if (!process.stdout.destroyed) {
    process.stdout.write(text);
    return;
  }
  try {
    writeSync(1, text);
  } catch {
    // still failing: the lines are lost, the service is not
  }
}

/**
 * Lines are gathered and written once per turn of the event loop: a file or
 * pipe stdout is written synchronously, and one write per access line was a
 * tenth of a cached read's CPU under load (docs/benchmarks.md). On any way
 * out ('exit' also follows an uncaught exception) what is pending is written.
 */
let pending = '';
let scheduled = false;
function flushLog(): void {
  scheduled = false;
  const text = pending;
  pending = '';
  if (text !== '') writeOut(text);
}
process.on('exit', flushLog);
function writeLog(line: string): void {
  pending += `${line}\n`;
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushLog);
}

async function main() {
  // Before the settings are read: `.env` fills in what the environment leaves unset.
  loadDotEnv();
  const settings = parseSettings(process.env, 'node');
  const jwtSecret = settings.jwtSecret ?? (await loadOrCreateJwtSecret(path.resolve('data')));
  // The bundle lives in dist/node/; migrations and the admin build are two levels up.
  const appRoot = process.env.CMS_APP_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  // Under scripts/supervisor.ts: releases/ is the install's, not this release's, and requests go over IPC.
  const supervised = process.env.CMS_SUPERVISED === '1' && typeof process.send === 'function';
  const releasesDir = process.env.CMS_RELEASES_DIR ? path.resolve(process.env.CMS_RELEASES_DIR) : undefined;
  const { deps, close } = await buildNodeDeps(
    { ...settings, jwtSecret },
    { appRoot, jwtSecret, releasesDir, supervisor: supervised ? process : null, writeLog },
  );
  const app = createApp(deps);
  // A read-cache hit without an Origin is answered before the app, synchronously
  // (http/middleware/public-read-cache.ts); without the read cache, a conditional read's 304 (conditional-reads.ts).
  const early = nodeListenerAnswers(deps);
  const fetch: typeof app.fetch = (req, env, ctx) => {
    const answer = early(req, env);
    if (answer === undefined) return app.fetch(req, env, ctx);
    return answer instanceof Response ? answer : answer.then((res) => res ?? app.fetch(req, env, ctx));
  };
  // serve() without its one shortcoming: it cannot take an errorHandler, so
  // requests the adapter cannot parse would get a bare 400 without headers.
  const listener = getRequestListener(fetch, {
    errorHandler: (err) => {
      const requestId = newRequestId();
      if (!(err instanceof RequestError)) deps.logger.error('request failed before the app', err, { requestId });
      return adapterErrorResponse(err instanceof RequestError, requestId);
    },
  });
  // An answer given before the body has come (413, 401, …) closes gently, so
  // that a client still sending still reads it (adapters/runtime/lingering-close.node.ts).
  const server = createServer({ ServerResponse: LingeringResponse }, listener);
  server.listen(settings.port, settings.host, () => {
    const { port } = server.address() as AddressInfo;
    deps.logger.info('listening', {
      url: `http://localhost:${port}`,
      publicUrl: settings.publicUrl,
      version: deps.version.version,
    });
    // What entry.boot.ts's compile cache has gathered is written now, not at
    // exit: a server that is killed (or scaled to zero) would never write it,
    // and every start would compile the bundle again. Entries read back from
    // the cache are not written again.
    setImmediate(flushCompileCache);
  });

  // The same call as the Worker's cron (every minute), every
  // SCHEDULER_INTERVAL_SECONDS: scheduled publications, webhook deliveries,
  // the purge when due. Database leases and conditional writes keep instances
  // sharing MySQL/PostgreSQL from doing the same work twice. Unref'd: it never
  // keeps the process alive; a tick in progress finishes before the database
  // closes, and a tick still running when the next is due is not doubled.
  /** Runs `work` now unless its previous run is still going; `idle` settles when none is. */
  const serial = (work: (now: Date) => Promise<unknown>, failed: string) => {
    let busy = false;
    const runner = {
      idle: Promise.resolve() as Promise<unknown>,
      run: () => {
        if (busy) return;
        busy = true;
        runner.idle = work(deps.clock.now())
          .catch((err) => deps.logger.error(failed, err))
          .finally(() => {
            busy = false;
          });
      },
    };
    return runner;
  };
  const ticks = serial(scheduledJobs(deps), 'scheduled jobs failed');
  const jobsTimer = setInterval(ticks.run, settings.schedulerIntervalSeconds * 1000).unref();
  // Between ticks, the jobs' frequent parts (webhook retries, and deliveries
  // whose sender died: at most CLAIM_MS plus this late), unless the ticks
  // come as often anyway.
  const sweeps = serial(frequentJobs(deps), 'frequent jobs failed');
  const sweepTimer =
    settings.schedulerIntervalSeconds * 1000 > FREQUENT_JOBS_MS
      ? setInterval(sweeps.run, FREQUENT_JOBS_MS).unref()
      : null;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info('stopping', { signal });
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    clearInterval(jobsTimer);
    if (sweepTimer) clearInterval(sweepTimer);
    server.close(async () => {
      await Promise.all([ticks.idle, sweeps.idle]);
      await close().catch((err) => deps.logger.error('database close failed', err));
      clearTimeout(force);
      process.exit(0);
    });
    // Idle keep-alive sockets would hold close() open until the grace runs out.
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The supervisor is gone (even kill -9): stop, so that no orphan keeps the port from the next one.
  if (supervised) process.on('disconnect', () => stop('supervisor gone'));
}

// Before the settings (and so LOG_LEVEL) are known: the same JSON line as every other, on stderr.
const startupError = (message: string, fields: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ level: 'error', at: new Date().toISOString(), message, ...fields })}\n`);

main().catch((err) => {
  if (err instanceof SettingsError) {
    startupError('Invalid settings', { problems: err.problems });
    process.exit(2);
  }
  // The driver's error code (SQLITE_BUSY, ECONNREFUSED, …) says what to fix; its message may hold a URL, so not that.
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  startupError('Start-up failed', {
    error: err instanceof Error ? err.message : String(err),
    ...(typeof code === 'string' ? { code } : {}),
  });
  process.exit(1);
});
