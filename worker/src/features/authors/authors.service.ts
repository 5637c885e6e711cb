import { catalogOperations } from '../../core/shared/catalog-operations.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { AuthorDto, CreateAuthorInput } from './author.schema.js';
import type { Author, AuthorPatch } from './authors.port.js';

export interface AuthorsDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
}

export const toAuthorDto = (author: Author): AuthorDto => ({
  id: author.id,
  name: author.name,
  slug: author.slug,
  bio: author.bio,
  avatarUrl: author.avatarUrl,
  createdAt: author.createdAt.toISOString(),
});

/** The authors articles name (docs/api.md#sites-and-authors). */
export function createAuthorsService({ repos, clock, ids }: AuthorsDeps) {
  return {
    // A slug taken by another author is a 409; so is deleting an author articles name.
    ...catalogOperations<Author, AuthorPatch, AuthorDto>(repos.authors, toAuthorDto, clock),

    /** A taken slug is a 409. */
    async create(input: CreateAuthorInput): Promise<AuthorDto> {
      const now = clock.now();
      const author: Author = {
        id: ids.newId(),
        name: input.name,
        slug: input.slug,
        bio: input.bio,
        avatarUrl: input.avatarUrl,
        createdAt: now,
        updatedAt: now,
      };
      await repos.authors.create(author);
      return toAuthorDto(author);
    },
  };
}

export type AuthorsService = ReturnType<typeof createAuthorsService>;
