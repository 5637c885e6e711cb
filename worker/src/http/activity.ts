import type { MiddlewareHandler } from 'hono';
import type { Settings } from '../config/settings.js';
import type { Defer } from '../ports/runtime.js';
import type { ActivityEvent } from '../ports/write-effects.js';
import { displayAddressOf, resolveClientAddress } from './client-address.js';
import { deferFor } from './defer.js';
import type { AppEnv } from './env.js';

export interface ActivityRecorderDeps {
  settings: Pick<Settings, 'trustProxy' | 'trustProxyHeader'>;
  peerAddress(request: Request, env: unknown): string | undefined;
  defer: Defer;
  /** Writes one activity entry; never rejects (the activity feature's record, wired in app/app.ts). */
  recordActivity(event: ActivityEvent): Promise<void>;
}

/**
 * Gives every /v1 request its `defer` (waitUntil, or the process's deferred
 * work on Node) and its `audit` function: the entry names the
 * request's actor and client address, and is written through waitUntil (or
 * the process's deferred work on Node) so the log never delays or fails
 * the request.
 */
export function activityRecorder(deps: ActivityRecorderDeps): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    // Found on first use: on Node, asking Hono for the execution context
    // throws, and an Error (with its stack) on every read cost ~10 µs a request.
    let resolved: Defer | undefined;
    const defer: Defer = (work) => {
      resolved ??= deferFor(c, deps.defer);
      return resolved(work);
    };
    c.set('defer', defer);
    const ip = () =>
      displayAddressOf(
        resolveClientAddress(
          deps.peerAddress(c.req.raw, c.env),
          c.req.raw.headers,
          deps.settings.trustProxy,
          deps.settings.trustProxyHeader,
        ),
      );
    c.set('origin', () => ({ actor: c.var.actor, ip: ip(), defer }));
    c.set('audit', (action, options = {}) => {
      const work = deps.recordActivity({
        actor: options.actor ?? c.var.actor,
        action,
        subject: options.subject ?? null,
        details: options.details ?? null,
        ip: ip(),
      });
      defer(work);
    });
    return next();
  };
}

/** The subject shorthand routes use. */
export const subject = (type: string, id: string | null) => ({ subject: { type, id } });

/** Whether a PATCH body names any field: one that names none changed nothing and is not logged. */
export const namesAField = (patch: object): boolean => Object.values(patch).some((v) => v !== undefined);
