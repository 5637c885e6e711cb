import { catalogOperations } from '../../core/shared/catalog-operations.js';
import { slugFromName } from '../../core/shared/name-slug.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Tag, TagPatch } from './tags.port.js';
import type { CreateTagInput, TagDto } from './tags.schema.js';

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
    // Renaming keeps the slug (links to it keep working); it changes only when given. A deleted tag
    // leaves every article that carried it.
    ...catalogOperations<Tag, TagPatch, TagDto>(repos.tags, toTagDto, clock),

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
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
