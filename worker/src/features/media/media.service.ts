import { notFound } from '../../core/domain/errors.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { BlobStore } from '../../ports/blob-store.js';
import type { Repositories } from '../../ports/repositories.js';
import { settle, type WriteEffects, type WriteOrigin } from '../../ports/write-effects.js';
import type { LinkBase } from '../../wire/links.js';
import type { Page } from '../../wire/pagination.schema.js';
import { originalKey } from './blob-keys.js';
import { imageConsequences } from './image-changes.js';
import { toImageDto } from './image-dto.js';
import type { ImageDto, ImageWithVariantsDto, MediaListQuery, UpdateImageInput } from './media.schema.js';
import type { VariantsService } from './variants.service.js';

export interface MediaDeps {
  repos: Repositories;
  blobs: BlobStore;
  variants: VariantsService;
  logError: (message: string, err: unknown) => void;
  /** The activity entry and webhook event of a delete, committed with it (image-changes.ts). */
  effects: WriteEffects;
}

/** The media library: every image, whichever article holds it. */
export function createMediaService(deps: MediaDeps) {
  const { repos, blobs, variants, logError } = deps;

  async function existing(id: string) {
    const image = await repos.images.findById(id);
    if (!image) throw notFound();
    return image;
  }

  return {
    async list(query: MediaListQuery, links: LinkBase): Promise<Page<ImageDto>> {
      const rows = await repos.images.list({
        limit: query.limit + 1,
        beforeId: decodeCursor(query.cursor),
        articleId: query.articleId,
        textContains: query.q,
        sha256: query.sha256,
      });
      return toPage(rows, query.limit, (i) => toImageDto(i, links));
    },

    async get(id: string, links: LinkBase): Promise<ImageWithVariantsDto> {
      const image = await existing(id);
      const { variants: list, unreadable } = await variants.stored(image, links);
      // Marked as not renderable: every variant is a 400, so the answer offers none.
      const dto = toImageDto(image, links);
      return { ...dto, srcset: unreadable ? '' : dto.srcset, variants: list };
    },

    /**
     * The row goes first: from then on the file and its variants are 404
     * (serving looks the row up). Blobs that fail to go are orphans for the
     * purge, never live images.
     */
    async delete(id: string, by: WriteOrigin): Promise<void> {
      const image = await existing(id);
      const consequences = await imageConsequences(deps.effects, { kind: 'deleted', id: image.id }, by);
      if (!(await repos.images.delete(id, consequences.rows))) throw notFound();
      settle(consequences, by);
      await blobs.delete(originalKey(image.filename)).catch((err) => logError('image blob left behind', err));
      await variants.clearForQuietly([id]);
    },

    /** An image's words (name, alt, caption); its bytes never change. */
    async update(id: string, input: UpdateImageInput, links: LinkBase): Promise<ImageDto> {
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      const image = await repos.images.update(id, patch);
      if (!image) throw notFound();
      return toImageDto(image, links);
    },

    async clearVariants(id: string): Promise<void> {
      await existing(id);
      await variants.clearFor(id);
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
