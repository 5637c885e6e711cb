import { catalogOperations } from '../../core/shared/catalog-operations.js';
import { slugFromName } from '../../core/shared/name-slug.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Term, TermPatch } from './glossary.port.js';
import type { CreateTermInput, TermDto } from './glossary.schema.js';

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
    // Renaming keeps the slug (links to it keep working); it changes only when given.
    ...catalogOperations<Term, TermPatch, TermDto>(repos.glossary, toTermDto, clock),

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
  };
}

export type GlossaryService = ReturnType<typeof createGlossaryService>;
