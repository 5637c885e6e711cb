import type { ApiKeyScope } from '../api-keys/api-key.schema.js';
import type { Actor } from './actor.js';

/**
 * Who may do what, in one table (docs/api.md#roles). `session`: any signed-in
 * account, verified or not; `verified`: a verified account of either role;
 * `owner`: the owner only. Routes name a permission, never a role.
 */
export const POLICY = {
  'account.self': 'session',
  'content.write': 'session',
  'media.upload': 'session',
  'content.readOffline': 'verified',
  'media.read': 'verified',
  'media.manage': 'verified',
  // Purge settings and the record of runs: verified accounts, never a key.
  'purge.read': 'verified',
  'activity.read': 'verified',
  'sites.write': 'verified',
  'authors.write': 'verified',
  'tags.write': 'verified',
  'system.read': 'verified',
  'purge.configure': 'owner',
  'purge.run': 'owner',
  'users.manage': 'owner',
  'invitations.manage': 'owner',
  'apiKeys.manage': 'owner',
  'webhooks.manage': 'owner',
  'updates.apply': 'owner',
  'backup.manage': 'owner',
} as const satisfies Record<string, 'session' | 'verified' | 'owner'>;

export type Permission = keyof typeof POLICY;

/**
 * What each API key scope grants (docs/api.md#api-keys). Nothing else: a key
 * never passes an owner-only route, an account route (`account.self`), the
 * activity log, the purge settings and runs, or the system routes, whatever
 * its scopes (test/node/api-key-scopes.test.ts walks every route).
 */
export const SCOPE_GRANTS: Record<ApiKeyScope, readonly Permission[]> = {
  'content:read': ['content.readOffline'],
  'content:write': ['content.write', 'sites.write', 'authors.write', 'tags.write'],
  'media:write': ['media.upload', 'media.read', 'media.manage'],
};
export type Decision = 'allow' | 'unauthenticated' | 'forbidden';

export function decide(actor: Actor, permission: Permission): Decision {
  if (actor.type === 'apiKey') {
    return actor.key.scopes.some((scope) => SCOPE_GRANTS[scope].includes(permission)) ? 'allow' : 'forbidden';
  }
  if (actor.type !== 'user') return 'unauthenticated';
  const needs = POLICY[permission];
  if (needs === 'session') return 'allow';
  if (!actor.user.verified) return 'forbidden';
  if (needs === 'verified') return 'allow';
  return actor.user.role === 'owner' ? 'allow' : 'forbidden';
}

/** Verified users (and keys with content:read) may read offline articles; unverified registrants may not. */
export const canReadOffline = (actor: Actor): boolean => decide(actor, 'content.readOffline') === 'allow';
