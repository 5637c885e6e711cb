import type { Actor } from './actor.js';
import type { ApiKeyScope } from './api-key.js';

/**
 * Who may do what (docs/api.md#roles). `session`: any signed-in account,
 * verified or not; `verified`: a verified account of either role; `owner`:
 * the owner only. Routes name a permission, never a role. This table holds
 * the platform's permissions and those of the features written before
 * `featurePermission`; a new feature declares its own beside its routes.
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
} as const satisfies Record<string, Needs>;

export type Needs = 'session' | 'verified' | 'owner';
/** A permission of the table above. */
export type PolicyPermission = keyof typeof POLICY;

/**
 * A permission a feature declares with `featurePermission`, in its own folder:
 * a new resource adds no line here. Its rule and the key scopes granting it
 * travel with it, so the routes, the API description and decide() read them
 * from the value (test/node/api-key-scopes.test.ts walks these too).
 */
export interface FeaturePermission {
  readonly name: string;
  readonly needs: Needs;
  readonly keyScopes: readonly ApiKeyScope[];
}

/** What a route may require: a permission of the table, or a feature's own. */
export type Permission = PolicyPermission | FeaturePermission;

/** A feature's permission; an owner-only one is granted to no API key (the overloads say so). */
export function featurePermission(name: string, needs: 'owner'): FeaturePermission;
export function featurePermission(
  name: string,
  needs: 'session' | 'verified',
  keyScopes?: readonly ApiKeyScope[],
): FeaturePermission;
export function featurePermission(name: string, needs: Needs, keyScopes: readonly ApiKeyScope[] = []) {
  return Object.freeze({ name, needs, keyScopes: Object.freeze([...keyScopes]) });
}

/** The permission's name (`terms.write`), for messages and tests. */
export const permissionName = (p: Permission): string => (typeof p === 'string' ? p : p.name);

/** Who the permission is for. */
export const needsOf = (p: Permission): Needs => (typeof p === 'string' ? POLICY[p] : p.needs);

/** Whether an API key with this scope passes the permission. */
export const scopeGrants = (scope: ApiKeyScope, p: Permission): boolean =>
  typeof p === 'string' ? SCOPE_GRANTS[scope].includes(p) : p.keyScopes.includes(scope);

/**
 * What each API key scope grants (docs/api.md#api-keys). Nothing else: a key
 * never passes an owner-only route, an account route (`account.self`), the
 * activity log, the purge settings and runs, or the system routes, whatever
 * its scopes (test/node/api-key-scopes.test.ts walks every route).
 */
export const SCOPE_GRANTS: Record<ApiKeyScope, readonly PolicyPermission[]> = {
  'content:read': ['content.readOffline'],
  'content:write': ['content.write', 'sites.write', 'authors.write', 'tags.write'],
  'media:write': ['media.upload', 'media.read', 'media.manage'],
};
export type Decision = 'allow' | 'unauthenticated' | 'forbidden';

export function decide(actor: Actor, permission: Permission): Decision {
  if (actor.type === 'apiKey') {
    return actor.key.scopes.some((scope) => scopeGrants(scope, permission)) ? 'allow' : 'forbidden';
  }
  if (actor.type !== 'user') return 'unauthenticated';
  const needs = needsOf(permission);
  if (needs === 'session') return 'allow';
  if (!actor.user.verified) return 'forbidden';
  if (needs === 'verified') return 'allow';
  return actor.user.role === 'owner' ? 'allow' : 'forbidden';
}

/** Verified users (and keys with content:read) may read offline articles; unverified registrants may not. */
export const canReadOffline = (actor: Actor): boolean => decide(actor, 'content.readOffline') === 'allow';
