import { notFound } from '../../core/domain/errors.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { AuthorDto, CreateAuthorInput, UpdateAuthorInput } from './author.schema.js';
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
    async list(limit: number, cursor?: string): Promise<Page<AuthorDto>> {
      const rows = await repos.authors.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toAuthorDto);
    },

    async get(id: string): Promise<AuthorDto> {
      const author = await repos.authors.findById(id);
      if (!author) throw notFound();
      return toAuthorDto(author);
    },

    async getBySlug(slug: string): Promise<AuthorDto> {
      const author = await repos.authors.findBySlug(slug);
      if (!author) throw notFound();
      return toAuthorDto(author);
    },

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

    async update(id: string, input: UpdateAuthorInput): Promise<AuthorDto> {
      const patch: AuthorPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.slug !== undefined) patch.slug = input.slug;
      if (input.bio !== undefined) patch.bio = input.bio;
      if (input.avatarUrl !== undefined) patch.avatarUrl = input.avatarUrl;
      // A patch that names no field changes nothing, `updatedAt` included.
      const author =
        Object.keys(patch).length === 0
          ? await repos.authors.findById(id)
          : await repos.authors.update(id, patch, clock.now());
      if (!author) throw notFound();
      return toAuthorDto(author);
    },

    /** 409 while articles name the author. */
    async delete(id: string): Promise<void> {
      if (!(await repos.authors.delete(id))) throw notFound();
    },
  };
}

export type AuthorsService = ReturnType<typeof createAuthorsService>;
