import type { Context, MiddlewareHandler, Next } from 'hono';
import { ANONYMOUS } from '../../auth/actor.js';
import { type ApiKey, looksLikeApiKey } from '../../auth/api-key.js';
import { decide, type Permission } from '../../auth/policy.js';
import type { User } from '../../auth/user.js';
import { DomainError } from '../../core/domain/errors.js';
import type { AppEnv } from '../env.js';

// Far above any token we sign; refusing early keeps garbage cheap.
const MAX_TOKEN_LENGTH = 4096;

const unauthorized = () => new DomainError('unauthorized', 'Missing, invalid or expired token');

/** What a bearer token can name, looked up by the features that issue them (wired in app/app.ts). */
export interface Credentials {
  /** An API key's token: the key, and whether this use should be recorded. */
  apiKey(token: string): Promise<{ key: ApiKey; touch: boolean } | null>;
  /** Records an API key's use (after the response). */
  touchApiKey(id: string): Promise<void>;
  /** A session token: its user. */
  user(token: string): Promise<User | null>;
}

/**
 * Sets the actor for every /v1 request. No header: anonymous. A header that
 * does not hold a valid token of ours: 401, even on public routes, so that a
 * client learns its session ended instead of silently seeing less.
 */
export const authentication =
  (credentials: Credentials): MiddlewareHandler<AppEnv> =>
  (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined) {
      c.set('actor', ANONYMOUS);
      return next();
    }
    return withCredentials(credentials, c, next, header);
  };

async function withCredentials(credentials: Credentials, c: Context<AppEnv>, next: Next, header: string) {
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match || match[1]!.length > MAX_TOKEN_LENGTH) throw unauthorized();
  const token = match[1]!;
  if (looksLikeApiKey(token)) {
    const found = await credentials.apiKey(token);
    if (!found) throw unauthorized();
    c.set('actor', { type: 'apiKey', key: found.key });
    if (found.touch) {
      // Last use and the activity entry are written after the response.
      c.var.audit('apiKey.use', { subject: { type: 'apiKey', id: found.key.id }, details: { name: found.key.name } });
      c.var.defer(credentials.touchApiKey(found.key.id));
    }
    return next();
  }
  const user = await credentials.user(token);
  if (!user) throw unauthorized();
  c.set('actor', { type: 'user', user });
  return next();
}

/**
 * The route's permission, decided by the one policy table: no session is
 * 401, a session without the right is 403.
 */
export const allow =
  (permission: Permission): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const decision = decide(c.get('actor'), permission);
    if (decision === 'unauthenticated') throw unauthorized();
    if (decision === 'forbidden') throw new DomainError('forbidden', 'You may not do this');
    return next();
  };

/** The signed-in user behind a route guarded by `allow(...)`. */
export function currentUser(c: Context<AppEnv>): User {
  const actor = c.var.actor;
  if (actor.type !== 'user') throw unauthorized();
  return actor.user;
}
