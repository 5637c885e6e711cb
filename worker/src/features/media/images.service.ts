import { DomainError, notFound } from '../../core/domain/errors.js';
import { acceptImage } from '../../core/media/image-acceptance.js';
import { sha256Hex } from '../../core/shared/crypto.js';
import type { BlobObject, BlobStore } from '../../ports/blob-store.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import { settle, type WriteEffects, type WriteOrigin } from '../../ports/write-effects.js';
import type { LinkBase } from '../../wire/links.js';
import { IMAGE_FILENAME, originalKey } from './blob-keys.js';
import { imageConsequences } from './image-changes.js';
import { toImageDto } from './image-dto.js';
import type { Image, ImagePatch } from './images.port.js';
import type { ImageDto } from './media.schema.js';

export interface ImagesDeps {
  repos: Repositories;
  blobs: BlobStore;
  clock: Clock;
  ids: IdGenerator;
  maxUploadBytes: number;
  maxImagePixels: number;
  logError: (message: string, err: unknown) => void;
  /** The activity entry and webhook event of an upload, committed with its row (image-changes.ts). */
  effects: WriteEffects;
}

/** What an upload may say about the image besides its bytes (the name already sanitised). */
export type ImageWords = Required<ImagePatch>;
const NO_WORDS: ImageWords = { originalName: null, alt: '', caption: '' };

const invalidFile = (message: string) => new DomainError('invalid_request', message, [{ path: 'file', message }]);

export function createImagesService(deps: ImagesDeps) {
  const { repos, blobs, clock, ids, logError } = deps;

  return {
    /** The largest file an upload may hold. */
    maxUploadBytes: deps.maxUploadBytes,

    /** The article must exist (checked by the caller before the body is read, and again by the row's foreign key). */
    async upload(
      articleId: string,
      bytes: Uint8Array,
      links: LinkBase,
      by: WriteOrigin,
      words: ImageWords = NO_WORDS,
    ): Promise<ImageDto> {
      const accepted = acceptImage(bytes, { maxBytes: deps.maxUploadBytes, maxPixels: deps.maxImagePixels });
      if (!accepted.ok)
        throw accepted.tooLarge
          ? new DomainError('payload_too_large', accepted.message)
          : invalidFile(accepted.message);
      const { header } = accepted;
      const id = ids.newId();
      const image: Image = {
        id,
        articleId,
        filename: `${id}.${header.extension}`,
        contentType: header.contentType,
        bytes: bytes.byteLength,
        width: header.width,
        height: header.height,
        sha256: await sha256Hex(bytes),
        createdAt: clock.now(),
        ...words,
      };
      // Blob first, row second: a row never points at a missing blob.
      await blobs.put(originalKey(image.filename), bytes, image.contentType);
      const uploaded = toImageDto(image, links);
      try {
        const consequences = await imageConsequences(deps.effects, { kind: 'uploaded', image: uploaded }, by);
        await repos.images.create(image, consequences.rows);
        settle(consequences, by);
      } catch (err) {
        await blobs.delete(originalKey(image.filename)).catch((e) => logError('orphan blob after failed insert', e));
        throw err;
      }
      return uploaded;
    },

    /**
     * An image of the library shown by one more article: it is listed with
     * the article's images and may be its feature image, and it stays as
     * long as any article linking it does. No bytes move.
     */
    async link(articleId: string, imageId: string, links: LinkBase): Promise<ImageDto> {
      const image = await repos.images.findById(imageId);
      if (!image || !(await repos.images.link(image.id, articleId))) throw notFound();
      return toImageDto(image, links);
    },

    /** The row decides: a deleted image is 404 at once, whatever storage still holds. */
    async open(filename: string): Promise<{ image: Image; blob: BlobObject }> {
      if (!IMAGE_FILENAME.test(filename)) throw notFound();
      const image = await repos.images.findByFilename(filename);
      if (!image) throw notFound();
      const blob = await blobs.get(originalKey(filename));
      if (!blob) throw notFound();
      return { image, blob };
    },

    /** The blob exists (HEAD answers without opening it). */
    async assertStored(filename: string): Promise<void> {
      if (!(await blobs.head(originalKey(filename)))) throw notFound();
    },

    /** For conditional requests: the row alone answers If-None-Match without touching storage. */
    async find(filename: string): Promise<Image> {
      if (!IMAGE_FILENAME.test(filename)) throw notFound();
      const image = await repos.images.findByFilename(filename);
      if (!image) throw notFound();
      return image;
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;
