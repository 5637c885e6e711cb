import { DomainError } from '../domain/errors.js';

/**
 * Entity tags for conditional requests (RFC 9110 §8.8.3, §13.1). Shared by
 * every resource that versions its writes (If-Match) or revalidates reads
 * (If-None-Match), so each parses the headers the same way.
 */

/** `*` (any current version), or the strong tags the client named, quotes included. */
export type IfMatch = '*' | readonly string[];

// One list element: an optional weak prefix and a quoted opaque tag (etagc: no DQUOTE, no space, no controls).
const ELEMENT = /[ \t]*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")[ \t]*(?:,|$)/y;
const EMPTY_ELEMENT = /[ \t]*,/y;

/** The tags of an `If-Match` or `If-None-Match` list; weak ones are marked. Null when it is not one. */
function parseTagList(value: string): { tag: string; weak: boolean }[] | null {
  const tags: { tag: string; weak: boolean }[] = [];
  let at = 0;
  while (at < value.length) {
    EMPTY_ELEMENT.lastIndex = at;
    // The list syntax (RFC 9110 §5.6.1) lets a recipient skip empty elements.
    if (EMPTY_ELEMENT.test(value)) {
      at = EMPTY_ELEMENT.lastIndex;
      continue;
    }
    ELEMENT.lastIndex = at;
    const m = ELEMENT.exec(value);
    if (!m) return null;
    tags.push({ tag: m[2]!, weak: m[1] !== undefined });
    at = ELEMENT.lastIndex;
    if (value.slice(at).trim() === '') break;
  }
  return tags;
}

/**
 * The `If-Match` header: undefined when absent (the write is unconditional),
 * `*`, or the strong tags named. If-Match compares strongly, so a weak tag
 * never matches and is dropped; a header that is not `*` or a list of tags
 * is refused rather than guessed at.
 */
export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const tags = parseTagList(header);
  if (tags === null || tags.length === 0) {
    throw new DomainError('invalid_request', 'If-Match must be * or a list of entity tags such as "v3"', [
      { path: 'If-Match', message: 'must be * or a comma-separated list of quoted entity tags' },
    ]);
  }
  return tags.filter((t) => !t.weak).map((t) => t.tag);
}

/** Whether an `If-None-Match` header names this tag (weak comparison, RFC 9110 §13.1.2); a malformed one names nothing. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const strip = (tag: string) => tag.replace(/^W\//, '');
  return (parseTagList(header) ?? []).some((t) => t.tag === strip(etag));
}
