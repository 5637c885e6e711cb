import { type ArticleFields, type ConflictField, isBlank, mergeFields, sameFields } from './article-fields';
import { inEditorDb } from './editor-db';

/**
 * The editor's local drafts, in IndexedDB: what was typed survives a crash,
 * a reload, a closed tab and an expired session, and is offered back the
 * next time the same article (or a new one) is opened in this browser. Kept
 * per account and article (`<userId>:<articleId>`, `<userId>:new`); removed
 * once the server holds the same text. Storage that is unavailable (private
 * modes, quota) makes these calls do nothing: the server copy still counts.
 */
export interface LocalDraft {
  fields: ArticleFields;
  /**
   * The server's fields the draft was edited from (an existing article):
   * restoring merges field by field against it, so what only the server
   * changed since is kept. Absent for a new article and older drafts.
   */
  base?: ArticleFields;
  /** When it was written (ms since the epoch). */
  savedAt: number;
}

const run = <T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>) => inEditorDb('drafts', mode, op);

export const draftKey = (userId: string | undefined, articleId: string | null) =>
  `${userId ?? 'anyone'}:${articleId ?? 'new'}`;

const copy = (f: ArticleFields): ArticleFields => ({
  ...f,
  authorIds: [...f.authorIds],
  ...(f.tags && { tags: f.tags.map((t) => ({ ...t })) }),
});

/**
 * The newest keystrokes, written at once and synchronously (localStorage):
 * IndexedDB writes are asynchronous and a tab closed a moment after the last
 * key would not wait for one. Read back with the IndexedDB copy, the newer
 * of the two wins.
 */
const QUICK = 'cms.draft.';

const isDraft = (value: unknown): value is LocalDraft =>
  !!value && typeof value === 'object' && 'fields' in value && 'savedAt' in value;

function readQuick(key: string): LocalDraft | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(QUICK + key) ?? 'null');
    return isDraft(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps `fields` now, before this call returns (each keystroke): nothing typed is lost with the tab. */
export function keepNow(key: string, fields: ArticleFields, base?: ArticleFields): void {
  const draft: LocalDraft = { fields: copy(fields), ...(base && { base: copy(base) }), savedAt: Date.now() };
  try {
    localStorage.setItem(QUICK + key, JSON.stringify(draft));
  } catch {
    // Full or unavailable: the IndexedDB copy, a quarter second later, still counts.
  }
}

export async function readDraft(key: string): Promise<LocalDraft | null> {
  const value = await run('readonly', (s) => s.get(key) as IDBRequest<LocalDraft | undefined>);
  const kept = isDraft(value) ? value : null;
  const quick = readQuick(key);
  if (!kept || !quick) return kept ?? quick;
  return quick.savedAt > kept.savedAt ? quick : kept;
}

export async function writeDraft(key: string, fields: ArticleFields, base?: ArticleFields): Promise<boolean> {
  const draft: LocalDraft = { fields: copy(fields), ...(base && { base: copy(base) }), savedAt: Date.now() };
  return (await run('readwrite', (s) => s.put(draft, key))) !== null;
}

export async function deleteDraft(key: string): Promise<void> {
  try {
    localStorage.removeItem(QUICK + key);
  } catch {
    // Unavailable: nothing was kept there.
  }
  await run('readwrite', (s) => s.delete(key));
}

/** Worth offering back: it holds something the server lacks (with a base: a change of its own, not just an older version). */
export function draftOnOffer(draft: LocalDraft, server: ArticleFields): boolean {
  if (draft.base && sameFields(draft.base, draft.fields)) return false;
  return !sameFields(draft.fields, server) && !isBlank(draft.fields);
}

/**
 * The fields a restored draft puts into the editor: with its base, merged
 * field by field with the server's version (mergeFields, as after a 412),
 * and the fields both changed differently; without (a new article, an older
 * draft), the draft as it is.
 */
export function restoredDraft(
  draft: LocalDraft,
  server: ArticleFields,
): { fields: ArticleFields; conflicts: ConflictField[] } {
  if (!draft.base) return { fields: draft.fields, conflicts: [] };
  const { merged, conflicts } = mergeFields(draft.base, draft.fields, server);
  return { fields: merged, conflicts };
}
