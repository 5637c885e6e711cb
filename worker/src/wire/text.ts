/** Character classes that the contract's text rules refuse. */

// C0/C1 controls and DEL: none belongs in one line of text (titles, names, meta tags).
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

// With the u flag a valid surrogate pair is one code point; only a lone half matches.
// No database stores a lone half unchanged (UTF-8 cannot encode it), so refuse it.
export const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
