/**
 * Read-your-writes on Workers (docs/caching.md): the server answers every
 * signed-in request with the D1 bookmark its session reached, and the admin
 * sends the newest one back, so a read after a write is never answered by a
 * read replica that has not seen the write yet. Kept per tab; on Node the
 * header never comes and nothing is sent.
 */
export const BOOKMARK_HEADER = 'x-d1-bookmark';
const KEY = 'cms.d1Bookmark';

let latest: string | null | undefined;

function stored(): string | null {
  if (latest !== undefined) return latest;
  try {
    latest = sessionStorage.getItem(KEY);
  } catch {
    latest = null;
  }
  return latest;
}

/** The bookmark to send with a signed-in request, if one was seen. */
export const currentBookmark = (): string | null => stored();

/** Remembers a bookmark from an answer; bookmarks sort by age, so an older one never replaces a newer. */
export function rememberBookmark(value: string | null): void {
  if (!value) return;
  const known = stored();
  if (known && known >= value) return;
  latest = value;
  try {
    sessionStorage.setItem(KEY, value);
  } catch {
    // Private mode or storage full: kept in memory for this page.
  }
}
