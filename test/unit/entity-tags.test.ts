import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits, parseIfMatch } from '../../worker/src/core/shared/entity-tags.js';

describe('entity tags (RFC 9110)', () => {
  it('reads If-Match: absent, *, and lists of strong tags (weak ones dropped, empty elements skipped)', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch(' * ')).toBe('*');
    expect(parseIfMatch('"v1"')).toEqual(['"v1"']);
    expect(parseIfMatch('"v1", W/"v2" ,,"a,b" , ""')).toEqual(['"v1"', '"a,b"', '""']);
    expect(parseIfMatch('W/"v2"')).toEqual([]);
  });

  it('refuses what is not * or a list of quoted tags', () => {
    for (const bad of ['', 'v1', '"v1" "v2"', '"v1', 'W/v1', '"v 1"', '*, "v1"', ',']) {
      expect(() => parseIfMatch(bad), bad).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
  });

  it('matches If-None-Match weakly, and a malformed one matches nothing', () => {
    expect(ifNoneMatchHits(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchHits('*', '"a"')).toBe(true);
    expect(ifNoneMatchHits('"b", W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchHits('"a"', 'W/"a"')).toBe(true);
    expect(ifNoneMatchHits('"b"', '"a"')).toBe(false);
    expect(ifNoneMatchHits('a', '"a"')).toBe(false);
  });
});
