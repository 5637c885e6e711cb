import type { ApiKey, User } from '../../core/domain/entities.js';
import { decide } from './policy.js';

/** Who is calling: nobody, a signed-in account, or an integration's API key. */
export type Actor = { type: 'anonymous' } | { type: 'user'; user: User } | { type: 'apiKey'; key: ApiKey };

export const ANONYMOUS: Actor = { type: 'anonymous' };

/** Verified users (and keys with content:read) may read offline articles; unverified registrants may not. */
export const canReadOffline = (actor: Actor): boolean => decide(actor, 'content.readOffline') === 'allow';
