/** Words a reader gets through in a minute: the figure Medium and Ghost use. */
export const WORDS_PER_MINUTE = 230;

const isSpace = (c: number): boolean =>
  c <= 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200b) || c === 0x2028 || c === 0x2029 || c === 0x3000;

/** A letter or digit: ASCII ones, and any other character outside Unicode's general punctuation block. */
const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && (c < 0x2000 || c > 0x206f));

/**
 * How many words a body holds: runs between white space that hold a letter
 * or digit (so Markdown's `#`, `-`, `>` and a lone dash are not words;
 * `don't` and `e-mail` are one). One pass over char codes, no allocation:
 * cheap enough for every read.
 */
export function countWords(body: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (isSpace(c)) {
      inWord = false;
    } else if (!inWord && isWordChar(c)) {
      inWord = true;
      words += 1;
    }
  }
  return words;
}

/** Minutes to read a body: its words / 230, rounded, at least 1 for a body with any word; 0 for none. */
export function readingTimeMinutes(body: string): number {
  const words = countWords(body);
  return words === 0 ? 0 : Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
