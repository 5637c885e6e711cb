import { pathToFileURL } from 'node:url';
import { bundleAppModule } from './app-module.ts';

/** An article as the app's domain has it: the floor reads only its tag ids. */
interface Article {
  tagIds: string[];
}

/**
 * The app's code the floor server (../floor-server.ts) runs: the parts of an
 * article read that are the work itself. Typed here by hand, as the bench's
 * other app modules are: the scripts' type check does not compile worker/src.
 */
export interface FloorParts {
  toArticle(row: Record<string, unknown>, authorIds: string[], tagIds: string[]): Article;
  idsInOrder(text: string | null): string[];
  tagRefsIn(value: unknown): { id: string; name: string; slug: string }[];
  toArticleDto(
    a: Article,
    images: never[],
    tags: ReadonlyMap<string, { id: string; name: string; slug: string }>,
    base: { origin: string; widths: readonly number[] },
  ): unknown;
  toArticleListItem(
    a: Article,
    images: never[],
    tags: ReadonlyMap<string, { id: string; name: string; slug: string }>,
    base: { origin: string; widths: readonly number[] },
    withHtml: boolean,
  ): unknown;
  encodeArticleCursor(sort: 'createdAt', order: 'desc', a: Article): string;
  decodeCursor(cursor: string | undefined): string | undefined;
  sha1Digest(text: string): string;
  createJsonLogger(write: (line: string) => void): { info(message: string, fields: Record<string, unknown>): void };
  SECURITY_RECORD: Readonly<Record<string, string>>;
}

/** FloorParts as re-exports from `root` (the repository): bundled for Node here, by wrangler for the Worker floor. */
export const floorPartsSource = (
  root: string,
) => `export { toArticle } from '${root}/worker/src/features/articles/article-row.repository.ts';
export { idsInOrder } from '${root}/worker/src/adapters/db/shared/ordered-ids.ts';
export { tagRefsIn } from '${root}/worker/src/features/tags/article-tags.repository.ts';
export { toArticleDto, toArticleListItem } from '${root}/worker/src/features/articles/article-dto.ts';
export { encodeArticleCursor } from '${root}/worker/src/features/articles/article-cursor.ts';
export { decodeCursor } from '${root}/worker/src/core/shared/pagination.ts';
export { sha1Digest } from '${root}/worker/src/adapters/runtime/sha1.digest.ts';
export { createJsonLogger } from '${root}/worker/src/adapters/runtime/json-logger.ts';
import { SECURITY_HEADERS } from '${root}/worker/src/http/middleware/security-headers.ts';
export const SECURITY_RECORD = Object.fromEntries(SECURITY_HEADERS);`;

/** Bundles FloorParts; the file URL the floor server imports (FLOOR_PARTS). */
export async function bundleFloorParts(): Promise<string> {
  const file = await bundleAppModule('floor-parts', floorPartsSource('.'));
  return pathToFileURL(file).href;
}
