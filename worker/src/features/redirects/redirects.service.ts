import { DomainError, notFound } from '../../core/domain/errors.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { Redirect, RedirectPatch } from './redirects.port.js';
import {
  type CreateRedirectInput,
  normalizeSitePath,
  type RedirectDto,
  type RedirectStatus,
  type UpdateRedirectInput,
} from './redirects.schema.js';

export interface RedirectsDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
}

export const toRedirectDto = (r: Redirect): RedirectDto => ({
  id: r.id,
  from: r.from,
  to: r.to,
  // Only the schema's statuses are ever written (CreateRedirectSchema, and an import's rules).
  status: r.status as RedirectStatus,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/**
 * A redirect to its own path would send a reader round in a loop: `to` a
 * path whose path part (before `?` or `#`, trailing slashes aside) is
 * `from`, since a lookup matches the path alone. An absolute `to` names an
 * origin the API cannot tell from the site's own, so it never counts.
 */
export function pointsToItself(from: string, to: string): boolean {
  if (!to.startsWith('/')) return false;
  return normalizeSitePath(to.split(/[?#]/, 1)[0] ?? to) === from;
}

const loop = () =>
  new DomainError('invalid_request', 'A redirect cannot point to its own path', [
    { path: 'to', message: 'to must lead somewhere other than from' },
  ]);

/** Reads and checks of one change before it gives up on a redirect others keep changing. */
const UPDATE_ATTEMPTS = 3;

const busy = () =>
  new DomainError('conflict', 'The redirect kept changing while this change was made: nothing was written, try again');

/** Old paths of the sites and where they now go (docs/api.md#redirects). */
export function createRedirectsService({ repos, clock, ids }: RedirectsDeps) {
  return {
    async list(limit: number, cursor?: string): Promise<Page<RedirectDto>> {
      const rows = await repos.redirects.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toRedirectDto);
    },

    async get(id: string): Promise<RedirectDto> {
      const redirect = await repos.redirects.findById(id);
      if (!redirect) throw notFound();
      return toRedirectDto(redirect);
    },

    /** One hop: where `path` (normalised) goes, not where that place goes in turn. */
    async lookup(path: string): Promise<RedirectDto> {
      const redirect = await repos.redirects.findByFrom(path);
      if (!redirect) throw notFound();
      return toRedirectDto(redirect);
    },

    /** A `from` in use is a 409. */
    async create(input: CreateRedirectInput): Promise<RedirectDto> {
      if (pointsToItself(input.from, input.to)) throw loop();
      const now = clock.now();
      const redirect: Redirect = {
        id: ids.newId(),
        from: input.from,
        to: input.to,
        status: input.status,
        createdAt: now,
        updatedAt: now,
      };
      await repos.redirects.create(redirect);
      return toRedirectDto(redirect);
    },

    /**
     * The fields given change; the result must still lead elsewhere. The
     * check is made on the row as read, and the write happens only while
     * its `from` and `to` are still those: two changes at once (one moving
     * `from`, the other `to`) cannot together make a loop that neither
     * made alone. A row changed in between is read and checked again.
     */
    async update(id: string, input: UpdateRedirectInput): Promise<RedirectDto> {
      const patch: RedirectPatch = {};
      if (input.from !== undefined) patch.from = input.from;
      if (input.to !== undefined) patch.to = input.to;
      if (input.status !== undefined) patch.status = input.status;
      for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
        const current = await repos.redirects.findById(id);
        if (!current) throw notFound();
        // A patch that names no field changes nothing, `updatedAt` included.
        if (Object.keys(patch).length === 0) return toRedirectDto(current);
        if (pointsToItself(patch.from ?? current.from, patch.to ?? current.to)) throw loop();
        const updated = await repos.redirects.update(id, patch, clock.now(), current);
        if (updated) return toRedirectDto(updated);
      }
      throw busy();
    },

    /** Returns what was deleted, for the activity log. */
    async delete(id: string): Promise<RedirectDto> {
      const redirect = await repos.redirects.findById(id);
      if (!redirect || !(await repos.redirects.delete(id))) throw notFound();
      return toRedirectDto(redirect);
    },
  };
}

export type RedirectsService = ReturnType<typeof createRedirectsService>;
