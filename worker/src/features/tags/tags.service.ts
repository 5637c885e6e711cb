import { notFound } from '../../core/domain/errors.js';
import { slugFromName } from '../../core/shared/name-slug.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { Tag, TagPatch } from './tags.port.js';
import type { CreateTagInput, TagDto, UpdateTagInput } from './tags.schema.js';

export interface TagsDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
}

export const toTagDto = (tag: Tag): TagDto => ({
  id: tag.id,
  name: tag.name,
  slug: tag.slug,
  createdAt: tag.createdAt.toISOString(),
});

/** The tags articles carry (docs/api.md#tags). */
export function createTagsService({ repos, clock, ids }: TagsDeps) {
  return {
    async list(limit: number, cursor?: string): Promise<Page<TagDto>> {
      const rows = await repos.tags.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toTagDto);
    },

    async get(id: string): Promise<TagDto> {
      const tag = await repos.tags.findById(id);
      if (!tag) throw notFound();
      return toTagDto(tag);
    },

    async getBySlug(slug: string): Promise<TagDto> {
      const tag = await repos.tags.findBySlug(slug);
      if (!tag) throw notFound();
      return toTagDto(tag);
    },

    /** Without a slug, one is made from the name; a taken slug is a 409 either way. */
    async create(input: CreateTagInput): Promise<TagDto> {
      const now = clock.now();
      const tag: Tag = {
        id: ids.newId(),
        name: input.name,
        slug: input.slug ?? slugFromName(input.name),
        createdAt: now,
        updatedAt: now,
      };
      await repos.tags.create(tag);
      return toTagDto(tag);
    },

    /** Renaming keeps the slug (links to it keep working); change it by giving one. */
    async update(id: string, input: UpdateTagInput): Promise<TagDto> {
      const patch: TagPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.slug !== undefined) patch.slug = input.slug;
      // A patch that names no field changes nothing, `updatedAt` included.
      const tag =
        Object.keys(patch).length === 0
          ? await repos.tags.findById(id)
          : await repos.tags.update(id, patch, clock.now());
      if (!tag) throw notFound();
      return toTagDto(tag);
    },

    /** The tag leaves every article that carried it. */
    async delete(id: string): Promise<void> {
      if (!(await repos.tags.delete(id))) throw notFound();
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
