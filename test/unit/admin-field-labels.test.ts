import { describe, expect, it } from 'vitest';
import { inWords } from '../../admin-qwik/src/lib/field-labels.js';

describe('admin errors in people’s words', () => {
  it('puts the label where the API names a field key', () => {
    expect(inWords('baseUrl must be an http(s) URL')).toBe('Base URL must be an http(s) URL');
    expect(inWords('metaTitle must be at most 200 characters; canonicalUrl must be an absolute http(s) URL')).toBe(
      'Meta title must be at most 200 characters; Canonical URL must be an absolute http(s) URL',
    );
    expect(inWords('authorIds.1: author 0190 does not exist')).toBe('Authors (2): author 0190 does not exist');
  });

  it('takes a form’s own labels first, then the shared ones', () => {
    const labels = { status: 'HTTP status', name: 'Title' };
    expect(inWords('status must be one of 301, 302; baseUrl must be an http(s) URL', labels)).toBe(
      'HTTP status must be one of 301, 302; Base URL must be an http(s) URL',
    );
    expect(inWords('name must not be empty', labels)).toBe('Title must not be empty');
    expect(inWords('status must be one of 301, 302')).toBe('status must be one of 301, 302');
  });

  it('leaves sentences alone that do not start with a known key', () => {
    for (const text of ['Invalid e-mail or password', 'the title must not be empty', 'constructor is odd', 'x']) {
      expect(inWords(text)).toBe(text);
    }
  });
});
