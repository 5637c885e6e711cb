import type { Row } from '../../adapters/db/rows.js';
import type { Rows } from '../../ports/unit-of-work.js';

/** Images and the article_images links: what the core needs from storage. */

/**
 * An image is its row: `filename` is `{uuid}.{ext}`, made by the server (never
 * the client's file name); `sha256` the hex digest of the stored bytes (also
 * the ETag); `originalName` the uploaded file's name, sanitised, null when not
 * known; `alt` the text alternative, may be empty.
 */
export type Image = Row<'images'>;

export interface ImageListQuery {
  limit: number;
  /** Keyset: only images with an id lower than this, newest first. */
  beforeId?: string;
}

/** What an editor may change of an image: its words, never its bytes. */
export type ImagePatch = Partial<Pick<Image, 'originalName' | 'alt' | 'caption'>>;

export interface MediaListQuery extends ImageListQuery {
  articleId?: string;
  /**
   * Only images whose filename, original name, alt text or caption contains
   * this text, ignoring ASCII case, matched literally (`%` and `_` are not wildcards).
   */
  textContains?: string;
}

/**
 * Images and the article_images links. An article shows the images it links
 * to; `Image.articleId` is the article it was uploaded for (or, once that is
 * deleted, another article that links it).
 */
export interface ImagesRepository {
  /** Inserts the row and its link to `articleId`. Unknown article → DomainError('not_found'). */
  /** With `also`: other features' rows, in the same transaction (ports/unit-of-work.ts). */
  create(image: Image, also?: readonly Rows[]): Promise<void>;
  findById(id: string): Promise<Image | null>;
  /** The hot read behind /static/uploadedImages: a prepared statement. */
  findByFilename(filename: string): Promise<Image | null>;
  /** The images of these file names that exist (any order): the facts a rendered body shows of them. */
  findByFilenames(filenames: string[]): Promise<Image[]>;
  /** The images the article links to, newest first. */
  listByArticle(articleId: string, query: ImageListQuery): Promise<Image[]>;
  /** Images of several articles at once (oldest first per article), for article lists. */
  listForArticles(articleIds: string[]): Promise<Map<string, Image[]>>;
  /** The media library: every image, newest first (id descending), keyset paged, optionally filtered (articleId: its links). */
  list(query: MediaListQuery): Promise<Image[]>;
  /** Deletes the row and its links. */
  /** With `also`: other features' rows, written only when the image is deleted. */
  delete(id: string, also?: readonly Rows[]): Promise<boolean>;
  /** Sets the given fields; the image as it now stands, or null when unknown. */
  update(id: string, patch: ImagePatch): Promise<Image | null>;
  /**
   * Folds a duplicate into its survivor, all or nothing: every article linking
   * the duplicate links the survivor, every article body and SEO record
   * (og image) naming the duplicate's filename names the survivor's, then
   * the duplicate's row (and
   * links) go. False, changing nothing, when either image is gone. The
   * caller deletes the duplicate's blobs afterwards.
   */
  mergeDuplicate(duplicateId: string, survivorId: string): Promise<boolean>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    images: ImagesRepository;
  }
}
