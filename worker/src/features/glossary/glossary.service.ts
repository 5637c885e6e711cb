import { notFound } from '../../core/domain/errors.js';
import { slugFromName } from '../../core/shared/name-slug.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { Term, TermPatch } from './glossary.port.js';
import type { CreateTermInput, TermDto, UpdateTermInput } from './glossary.schema.js';

export interface GlossaryDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
}

export const toTermDto = (term: Term): TermDto => ({
  id: term.id,
  name: term.name,
  slug: term.slug,
  definition: term.definition,
  createdAt: term.createdAt.toISOString(),
  updatedAt: term.updatedAt.toISOString(),
});

/** The glossary the sites' frontends explain their words with (docs/api.md#glossary). */
export function createGlossaryService({ repos, clock, ids }: GlossaryDeps) {
  return {
    async list(limit: number, cursor?: string): Promise<Page<TermDto>> {
      const rows = await repos.glossary.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toTermDto);
    },

    async get(id: string): Promise<TermDto> {
      const term = await repos.glossary.findById(id);
      if (!term) throw notFound();
      return toTermDto(term);
    },

    async getBySlug(slug: string): Promise<TermDto> {
      const term = await repos.glossary.findBySlug(slug);
      if (!term) throw notFound();
      return toTermDto(term);
    },

    /** Without a slug, one is made from the name; a taken slug is a 409 either way. */
    async create(input: CreateTermInput): Promise<TermDto> {
      const now = clock.now();
      const term: Term = {
        id: ids.newId(),
        name: input.name,
        slug: input.slug ?? slugFromName(input.name),
        definition: input.definition,
        createdAt: now,
        updatedAt: now,
      };
      await repos.glossary.create(term);
      return toTermDto(term);
    },

    /** Renaming keeps the slug (links to it keep working); change it by giving one. */
    async update(id: string, input: UpdateTermInput): Promise<TermDto> {
      const patch: TermPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.slug !== undefined) patch.slug = input.slug;
      if (input.definition !== undefined) patch.definition = input.definition;
      // A patch that names no field changes nothing, `updatedAt` included.
      const term =
        Object.keys(patch).length === 0
          ? await repos.glossary.findById(id)
          : await repos.glossary.update(id, patch, clock.now());
      if (!term) throw notFound();
      return toTermDto(term);
    },

    async delete(id: string): Promise<void> {
      if (!(await repos.glossary.delete(id))) throw notFound();
    },
  };
}

export type GlossaryService = ReturnType<typeof createGlossaryService>;
