import type { Clock } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import { notFound } from '../domain/errors.js';
import { decodeCursor, toPage } from './pagination.js';

/** What the shared operations need of a catalogue's repository (adapters/db/shared/catalog-rows.ts gives it all). */
export interface CatalogRepository<E, P> {
  findById(id: string): Promise<E | null>;
  findBySlug(slug: string): Promise<E | null>;
  list(query: { limit: number; beforeId?: string }): Promise<E[]>;
  update(id: string, patch: P, now: Date): Promise<E | null>;
  delete(id: string): Promise<boolean>;
}

/**
 * The reads, the change and the delete that every catalogue with slugs (tags, authors, the
 * glossary) answers the same way; a feature's service adds its create and what is its own.
 */
export function catalogOperations<E extends { id: string }, P extends object, D>(
  repo: CatalogRepository<E, P>,
  toDto: (entity: E) => D,
  clock: Clock,
) {
  const found = (entity: E | null): D => {
    if (!entity) throw notFound();
    return toDto(entity);
  };
  return {
    /** Newest first, keyset paged. */
    async list(limit: number, cursor?: string): Promise<Page<D>> {
      return toPage(await repo.list({ limit: limit + 1, beforeId: decodeCursor(cursor) }), limit, toDto);
    },
    async get(id: string): Promise<D> {
      return found(await repo.findById(id));
    },
    async getBySlug(slug: string): Promise<D> {
      return found(await repo.findBySlug(slug));
    },
    /** The fields given change, the rest stay; a patch that names none changes nothing, `updatedAt` included. */
    async update(id: string, patch: P): Promise<D> {
      const named = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as P;
      return found(
        Object.keys(named).length === 0 ? await repo.findById(id) : await repo.update(id, named, clock.now()),
      );
    },
    async delete(id: string): Promise<void> {
      if (!(await repo.delete(id))) throw notFound();
    },
  };
}
