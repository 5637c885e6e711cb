import { describe, expect, it } from 'vitest';
import { attachmentDisposition, takeDownloadFlag } from '../../worker/src/features/media/download-name.js';
import { MAX_FILE_NAME_LENGTH, sanitizeFileName } from '../../worker/src/wire/file-name.js';

describe('an uploaded file’s name', () => {
  it('keeps the last path part, without controls, bidi overrides, lone surrogates or leading dots', () => {
    expect(sanitizeFileName('C:\\fakepath\\photo.jpg')).toBe('photo.jpg');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
    expect(sanitizeFileName('a\u0000b\u0007c\u009f.png')).toBe('abc.png');
    expect(sanitizeFileName('  .hidden  name\t.png ')).toBe('hidden name.png');
    expect(sanitizeFileName('half\uD800.png')).toBe('half.png');
    expect(sanitizeFileName('e\u0301te\u0301.png')).toBe('\u00e9t\u00e9.png');
    expect(sanitizeFileName('👩‍💻 Ürlaub.png')).toBe('👩‍💻 Ürlaub.png');
    for (const empty of ['', '   ', '...', 'dir/', '\u0001']) expect(sanitizeFileName(empty)).toBeNull();
  });

  it('is bounded, keeping a short extension', () => {
    const long = sanitizeFileName(`${'x'.repeat(500)}.jpeg`)!;
    expect(Array.from(long)).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(long.endsWith('.jpeg')).toBe(true);
    const astral = sanitizeFileName('𝔘'.repeat(300))!;
    expect(Array.from(astral)).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(sanitizeFileName(`${'y'.repeat(300)}.${'e'.repeat(40)}`)).toBe('y'.repeat(MAX_FILE_NAME_LENGTH));
  });
});

describe('the download name', () => {
  it('says attachment, with an ASCII filename and the exact name as filename* (RFC 6266, RFC 8187)', () => {
    expect(attachmentDisposition({ filename: 'x.png', originalName: 'Été "1" 100%.png' })).toBe(
      `attachment; filename="_t_ _1_ 100_.png"; filename*=UTF-8''%C3%89t%C3%A9%20%221%22%20100%25.png`,
    );
    expect(attachmentDisposition({ filename: 'abc.png', originalName: null })).toBe(
      `attachment; filename="abc.png"; filename*=UTF-8''abc.png`,
    );
  });

  it('takes download=1 out of the query and refuses any other value', () => {
    const query: Record<string, string[]> = { download: ['1'], w: ['160'] };
    expect(takeDownloadFlag(query)).toBe(true);
    expect(query).toEqual({ w: ['160'] });
    expect(takeDownloadFlag({})).toBe(false);
    for (const bad of [['0'], ['1', '1'], ['yes']]) {
      expect(() => takeDownloadFlag({ download: bad })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
  });
});
