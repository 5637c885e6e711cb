import { inEditorDb } from './editor-db';

/**
 * Images on their way into an article's text, kept in this browser until
 * they are placed: the file itself (already shrunk) while it uploads, then
 * the path it got. A writer who leaves or reloads mid-upload finds the image
 * placed when the article is opened again here (lib/upload-queue.ts). Keyed
 * `<articleId>:<token>`; the token is the one in the text's placeholder.
 */
export interface PendingUpload {
  articleId: string;
  token: string;
  /** The file's name, for the alt text and the progress line. */
  name: string;
  file: Blob;
  /** Set once the server holds the image (uploaded, or the library's copy reused). */
  path: string | null;
}

const keyOf = (p: Pick<PendingUpload, 'articleId' | 'token'>) => `${p.articleId}:${p.token}`;

export async function keepPending(p: PendingUpload): Promise<void> {
  await inEditorDb('uploads', 'readwrite', (s) => s.put(p, keyOf(p)));
}

export async function dropPending(p: Pick<PendingUpload, 'articleId' | 'token'>): Promise<void> {
  await inEditorDb('uploads', 'readwrite', (s) => s.delete(keyOf(p)));
}

/** This article's images still to place, in the order they were inserted. */
export async function pendingFor(articleId: string): Promise<PendingUpload[]> {
  const range = IDBKeyRange.bound(`${articleId}:`, `${articleId}:\uffff`);
  const all = await inEditorDb('uploads', 'readonly', (s) => s.getAll(range) as IDBRequest<PendingUpload[]>);
  return all ?? [];
}
