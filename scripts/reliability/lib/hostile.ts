import fc from 'fast-check';

/**
 * Values a hostile or careless client sends, as fast-check arbitraries. The
 * fixed lists are the classics (in the spirit of the Big List of Naughty
 * Strings, which has no maintained npm package); fast-check adds random
 * strings, numbers and shapes around them.
 */

export const NAUGHTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\t\r\n',
  '\u202Eevil\u202C',
  '\uFEFF',
  '\uD800',
  'a\uDC00b',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  'Ｔｅｓｔ',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  'null',
  'undefined',
  'NaN',
  'true',
  '-1',
  '0',
  '1e309',
  '-1e309',
  '1abc',
  '0x10',
  '9007199254740993',
  '99999999999999999999999999999',
  '__proto__',
  'constructor',
  "' OR '1'='1",
  "'; DROP TABLE articles; --",
  '" OR ""="',
  '%',
  '_',
  '%00',
  '%2e%2e%2f',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/dev/null',
  'file:///etc/passwd',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as the text it is
  '${7*7}',
  '$(reboot)',
  '`id`',
  'owner@reliability.test',
  'a'.repeat(1025),
  'AAAA'.repeat(4096),
  'eyJhbGciOiJub25lIn0.eyJ1c2VyX2lkIjoxfQ.',
  `cms_${'x'.repeat(40)}`,
];

export const HUGE_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
  Number.MAX_VALUE,
];

export const naughtyString = fc.constantFrom(...NAUGHTY_STRINGS);

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: naughtyString },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 32 }) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

export const hostileNumber = fc.oneof(fc.constantFrom(...HUGE_NUMBERS), fc.integer(), fc.double({ noNaN: true }));

const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, of any shape, small. */
export const hostileValue = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, leaf, { maxKeys: 3 }) },
);

/** Raw bodies no serializer would write: each is sent as-is with the JSON content type. */
export const RAW_BODIES = [
  '',
  '{',
  '{"title":',
  'null',
  '[]',
  '"a string"',
  '12',
  '{"title":"x","title":"y"}',
  '{"__proto__":{"isAdmin":true},"title":"proto"}',
  '{"constructor":{"prototype":{"polluted":true}},"title":"ctor"}',
  '{"title":1e309}',
  '{"limit":-1e309}',
  '{"title":"\\ud800"}',
  '{"title":"\\u0000"}',
  '\uFEFF{"title":"bom"}',
  '['.repeat(10_000) + ']'.repeat(10_000),
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
];

/** A JSON body of about one MiB in `field`. */
export const oneMegabyte = (field: string): string => JSON.stringify({ [field]: 'x'.repeat(1 << 20) });

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECTX'];

/** Random paths, some under the API, some traversal attempts against the static files. */
export const hostilePath = fc.oneof(
  fc.constantFrom(
    '/',
    '//',
    '/v1',
    '/v1/',
    '/v1//articles',
    '/V1/ARTICLES',
    '/v1/articles/',
    '/v1/articles/..%2f..%2fhealthz',
    '/static/uploadedImages/..%2f..%2fpackage.json',
    '/static/uploadedImages/%2e%2e%2f%2e%2e%2fpackage.json',
    '/static/uploadedImages/..\\..\\package.json',
    '/static/uploadedImages/%252e%252e%252fpackage.json',
    '/static/uploadedImages/',
    '/static/../package.json',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/admin/../../etc/passwd',
    '/.env',
    '/.git/config',
    '/data/jwt-secret',
    '/dist/node/server.mjs',
    '/v1/openapi.json/..',
    '/v1/articles?limit=10&limit=20',
    '/v1/articles?cursor[]=1',
    `/v1/articles?${'a=1&'.repeat(2000)}`,
    `/v1/${'x'.repeat(8000)}`,
  ),
  fc
    .array(
      fc.oneof(
        naughtyString,
        fc.string({ unit: 'binary', maxLength: 12 }),
        fc.constantFrom('v1', 'articles', 'static', 'media', 'user'),
      ),
      {
        minLength: 1,
        maxLength: 5,
      },
    )
    .map((parts) => `/${parts.map((p) => pct(p)).join('/')}`),
);

/** Tokens: none, the real one, and broken ones. */
export const tokenKinds = (validToken: string) =>
  fc.constantFrom(
    { kind: 'none', header: undefined },
    { kind: 'valid', header: `Bearer ${validToken}` },
    { kind: 'valid', header: `Bearer ${validToken}` },
    { kind: 'valid', header: `Bearer ${validToken}` },
    { kind: 'valid', header: `Bearer ${validToken}` },
    { kind: 'valid', header: `Bearer ${validToken}` },
    { kind: 'tampered', header: `Bearer ${validToken.slice(0, -4)}AAAA` },
    { kind: 'alg-none', header: 'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJ1c2VyX2lkIjoiMSJ9.' },
    { kind: 'garbage', header: `Bearer ${'x'.repeat(9000)}` },
    { kind: 'no-scheme', header: validToken },
    { kind: 'api-key-shaped', header: 'Bearer cms_0000000000000000000000000000000000000000' },
  );

/**
 * encodeURIComponent that also encodes lone surrogates (as the WTF-8 bytes
 * a sloppy client would send) instead of throwing.
 */
export function pct(text: string): string {
  let out = '';
  for (const ch of String(text)) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}
