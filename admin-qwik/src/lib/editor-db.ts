/**
 * The editor's IndexedDB database, shared by its stores: `drafts` (local
 * drafts, lib/draft-store.ts) and `uploads` (images on their way into an
 * article's text, lib/pending-uploads.ts). Storage that is unavailable
 * (private modes, quota) answers null: callers carry on without it.
 */
const DB = 'cms-editor';
const STORES = ['drafts', 'uploads'] as const;
export type EditorStore = (typeof STORES)[number];

function open(): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    try {
      // Version 2 added `uploads`; an upgrade creates whatever store is missing.
      const req = indexedDB.open(DB, 2);
      req.onupgradeneeded = () => {
        for (const name of STORES) if (!req.result.objectStoreNames.contains(name)) req.result.createObjectStore(name);
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

/** One request in its own transaction; its result once committed, null on any failure. */
export async function inEditorDb<T>(
  store: EditorStore,
  mode: IDBTransactionMode,
  op: (s: IDBObjectStore) => IDBRequest<T>,
): Promise<T | null> {
  const db = await open();
  if (!db) return null;
  return new Promise((resolve) => {
    try {
      const tx = db.transaction(store, mode);
      const req = op(tx.objectStore(store));
      tx.oncomplete = () => {
        db.close();
        resolve(req.result ?? null);
      };
      tx.onerror = tx.onabort = () => {
        db.close();
        resolve(null);
      };
    } catch {
      db.close();
      resolve(null);
    }
  });
}
