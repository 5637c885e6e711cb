import type { User } from '../domain/entities.js';
import { decide } from './policy.js';

/** Who is calling. API keys join this union with the integrations issue. */
export type Actor = { type: 'anonymous' } | { type: 'user'; user: User };

export const ANONYMOUS: Actor = { type: 'anonymous' };

/** Verified users may read offline articles; unverified registrants may not. */
export const canReadOffline = (actor: Actor): boolean => decide(actor, 'content.readOffline') === 'allow';
