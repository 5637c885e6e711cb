import type { ImageDto } from '../../../worker/src/features/media/media.schema';
import { imagePath } from './image-path';
import { dropPending, keepPending, type PendingUpload, pendingFor } from './pending-uploads';
import type { Result } from './result';
import { shrinkBeforeUpload } from './shrink-before-upload';
import { call, uploadImage } from './typed-api';

/**
 * Images on their way into an article: each is looked up in the library by
 * its bytes' SHA-256 first (the same bytes are never uploaded twice: the
 * library's image is linked to the article instead), else uploaded with
 * progress. Uploads into the text outlive the editor: module state, not a
 * component's, so leaving the article inside the admin lets them finish;
 * the file waits in IndexedDB (lib/pending-uploads.ts) until its image is
 * placed, so a reload or a closed tab resumes it when the article is
 * opened again in this browser.
 */

let inFlight = 0;
/** Uploads running in this page (the Images card's and the text's): leaving asks first. */
export const uploadsInFlight = () => inFlight;

async function sha256Of(file: Blob): Promise<string | null> {
  // No SubtleCrypto outside a secure context (plain http on another host): then no lookup, just the upload.
  if (!globalThis.crypto?.subtle) return null;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The library's image with these bytes, linked to the article; null when there is none (or it cannot be used). */
async function reuse(articleId: string, file: Blob): Promise<ImageDto | null> {
  const sha256 = await sha256Of(file);
  if (!sha256) return null;
  const found = await call('get', '/v1/media', { query: { sha256, limit: 1 } });
  const image = found.ok ? found.data.items[0] : undefined;
  if (!image) return null;
  const linked = await call('put', '/v1/articles/{id}/images/{imageId}', {
    path: { id: articleId, imageId: image.id },
  });
  return linked.ok ? linked.data.image : null;
}

/** The article's image of these bytes: the library's when it has them, else uploaded (`onProgress` from 0 to 1). */
export async function uploadOrReuse(
  articleId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<Result<{ image: ImageDto; reused: boolean }>> {
  inFlight++;
  try {
    const existing = await reuse(articleId, file);
    if (existing) {
      onProgress(1);
      return { ok: true, status: 200, data: { image: existing, reused: true } };
    }
    const res = await uploadImage(articleId, file, onProgress, signal);
    return res.ok ? { ...res, data: { image: res.data.image, reused: false } } : res;
  } finally {
    inFlight--;
  }
}

/** What the editor showing an article hears of the uploads into its text. */
export interface UploadWatcher {
  /** The editor is still on screen (a component's cleanup can come late after leaving inside the admin). */
  showing(): boolean;
  progress(token: string, name: string, percent: number, note: string): void;
  /** Done: `message` says how (placed, reused) or why not. */
  finished(token: string, ok: boolean, message: string): void;
  /** No answer from the server (offline, or the page going away): the file waits here to be sent again. */
  waiting(token: string, name: string, message: string): void;
  /** Puts the image (`path`) where the placeholder of `token` is, or takes the placeholder out (`path` null). */
  place(token: string, name: string, path: string | null): void;
}

const watchers = new Map<string, UploadWatcher>();
/** Being sent by this page: a resume leaves them to their own send, which places them. */
const live = new Set<string>();
/** Placed by this page: a resume that read them just before must not send them again. */
const placed = new Set<string>();
const keyOf = (p: Pick<PendingUpload, 'articleId' | 'token'>) => `${p.articleId}:${p.token}`;

/** The editor of `articleId` is showing: it hears and places from now on (returns the way to stop). */
export function watchUploads(articleId: string, watcher: UploadWatcher): () => void {
  watchers.set(articleId, watcher);
  return () => {
    if (watchers.get(articleId) === watcher) watchers.delete(articleId);
  };
}

async function finish(p: PendingUpload, path: string | null, message: string): Promise<void> {
  const watcher = watchers.get(p.articleId);
  // Nobody to place it (the writer left): it stays pending, with its path, for the next visit.
  if (!watcher?.showing()) return;
  placed.add(keyOf(p));
  watcher.place(p.token, p.name, path);
  watcher.finished(p.token, path !== null, message);
  await dropPending(p);
}

async function send(p: PendingUpload): Promise<void> {
  live.add(keyOf(p));
  watchers.get(p.articleId)?.progress(p.token, p.name, 0, 'Uploading');
  const file = p.file instanceof File ? p.file : new File([p.file], p.name, { type: p.file.type });
  const res = await uploadOrReuse(p.articleId, file, (f) =>
    watchers.get(p.articleId)?.progress(p.token, p.name, Math.round(f * 100), 'Uploading'),
  );
  if (!res.ok && res.status === null) {
    // Never answered (offline, or a reload or closed tab cut it off): the file stays kept here, with its
    // placeholder, and is sent again when the browser is back online or the article is opened again.
    live.delete(keyOf(p));
    watchers.get(p.articleId)?.waiting(p.token, p.name, `${p.name} was not sent: ${res.message}`);
    return;
  }
  if (!res.ok) {
    live.delete(keyOf(p));
    await finish(p, null, `${p.name}: ${res.status === 413 ? 'larger than the upload limit' : res.message}`);
    return;
  }
  const done = { ...p, path: imagePath(res.data.image) };
  await keepPending(done);
  // Live until its path is kept: a resume in between would otherwise send it again.
  live.delete(keyOf(p));
  await finish(
    done,
    done.path,
    res.data.reused
      ? `${p.name} is already in the library: its image was inserted, not uploaded again.`
      : 'Image inserted. Its alt text is selected: type to describe the image.',
  );
}

/** Shrinks (when large and asked to), keeps the file for a later visit, then uploads it or reuses the library's copy. */
export async function uploadIntoText(articleId: string, token: string, original: File, shrinkOn: boolean) {
  const watcher = () => watchers.get(articleId);
  live.add(`${articleId}:${token}`);
  const { file } = await shrinkBeforeUpload(original, shrinkOn, (sizes) =>
    watcher()?.progress(token, original.name, 0, `Shrinking (${sizes})`),
  );
  const pending: PendingUpload = { articleId, token, name: original.name, file, path: null };
  await keepPending(pending);
  await send(pending);
}

/**
 * On opening an article, and when the browser is back online: places what finished while the writer
 * was away, and sends again what a reload, a closed tab or the network cut off.
 */
export async function resumeUploads(articleId: string): Promise<void> {
  for (const p of await pendingFor(articleId)) {
    if (live.has(keyOf(p)) || placed.has(keyOf(p))) continue;
    if (p.path) await finish(p, p.path, 'An image uploaded while you were away was put into the text.');
    else {
      watchers.get(articleId)?.progress(p.token, p.name, 0, 'Resuming the upload');
      await send(p);
    }
  }
}
