import type { Context, MiddlewareHandler } from 'hono';
import { DomainError } from '../../core/domain/errors.js';
import type { IdempotencyKeysRepository, KeepAnswer } from '../../ports/repositories.js';
import type { Clock, Logger } from '../../ports/runtime.js';
import type { AppEnv } from '../env.js';

/** How long a key and its answer are kept (docs/api.md#idempotency-key). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600 * 1000;
/** A claim this old without an answer belonged to a process that died mid-request: the key is free again. */
export const ABANDONED_CLAIM_MS = 60 * 1000;
/** Printable ASCII, no spaces: what a client generates (a UUID is usual). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyDeps {
  repos: { idempotencyKeys: IdempotencyKeysRepository };
  clock: Clock;
  logger: Logger;
}

const NOTHING_KEPT: KeepAnswer = async () => [];

const scopeOf = (c: Context<AppEnv>): string => {
  const actor = c.var.actor;
  if (actor.type === 'user') return `user:${actor.user.id}`;
  if (actor.type === 'apiKey') return `apiKey:${actor.key.id}`;
  throw new DomainError('forbidden', 'An Idempotency-Key needs a caller');
};

async function fingerprintOf(c: Context<AppEnv>): Promise<string> {
  const text = `${c.req.method} ${new URL(c.req.url).pathname}\n${await c.req.text()}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key header on a create (the IETF httpapi draft): the same
 * key and body again replay the first answer; another body with the key is
 * 422; while the first request runs, 409. Keys are the caller's own and
 * kept 24 hours. The create completes its claim in its own transaction
 * (`c.var.keepAnswer`), so a create that committed is never made twice.
 */
export function idempotency(deps: IdempotencyDeps): MiddlewareHandler<AppEnv> {
  const keys = deps.repos.idempotencyKeys;
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) {
      c.set('keepAnswer', NOTHING_KEPT);
      return next();
    }
    if (!KEY_PATTERN.test(key)) {
      const message = 'Idempotency-Key must be 1 to 255 printable ASCII characters';
      throw new DomainError('invalid_request', message, [{ path: 'Idempotency-Key', message }]);
    }
    const scope = scopeOf(c);
    const fingerprint = await fingerprintOf(c);
    const now = deps.clock.now();
    const held = await keys.claim(
      scope,
      key,
      fingerprint,
      now,
      new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
      new Date(now.getTime() - ABANDONED_CLAIM_MS),
    );
    if (held) {
      if (held.fingerprint !== fingerprint) {
        throw new DomainError('key_reused', 'This Idempotency-Key was used for another request');
      }
      if (!held.answer) throw new DomainError('conflict', 'A request with this Idempotency-Key is still in progress');
      return c.body(held.answer.body, held.answer.status as 201, {
        ...held.answer.headers,
        'content-type': 'application/json',
      });
    }
    c.set('keepAnswer', async (answer) => [await keys.answerRows(scope, key, answer)]);
    await next();
    // Failed: nothing of the create was written, so neither was its answer; the key may be used again.
    if (c.error || c.res.status >= 300) {
      await keys.release(scope, key).catch((err: unknown) => deps.logger.error('idempotency key not released', err));
    }
  };
}
