// Characters XML 1.0 cannot carry at all (even escaped): dropped from text.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text and attribute values: escaped, and stripped of what no XML parser accepts. */
export function xmlText(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(LONE_SURROGATE, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** RFC 822 dates, as RSS 2.0 wants them. */
export const rfc822 = (date: Date): string => date.toUTCString();
