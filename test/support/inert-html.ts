import { Parser } from 'htmlparser2';

const EXECUTABLE_ELEMENTS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'base',
  'link',
  'meta',
  'form',
  'template',
  'noscript',
  'textarea',
  'xmp',
  'plaintext',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'srcset', 'background', 'poster']);
const SAFE_DATA = /^data:image\/(?:png|gif|jpeg|webp)[;,]/i;

/**
 * Why a piece of rendered HTML could run code, or null when it cannot:
 * parsed as a browser would (htmlparser2's tree builder, entities decoded),
 * every element and attribute looked at. Used by the renderer's tests.
 */
export function executableContent(html: string): string | null {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (EXECUTABLE_ELEMENTS.has(name)) found.push(`<${name}>`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (attribute.startsWith('on')) found.push(`${name}[${attribute}]`);
          if (attribute === 'style' && !/^text-align:(?:left|right|center)$/.test(value)) found.push(`${name}[style]`);
          if (URL_ATTRIBUTES.has(attribute)) {
            // What a browser reads: controls and whitespace do not separate a scheme.
            const squeezed = [...value]
              .filter((ch) => ch.charCodeAt(0) > 0x20 && ch.charCodeAt(0) !== 0x7f)
              .join('')
              .toLowerCase();
            if (/^(?:javascript|vbscript|file|blob|filesystem):/.test(squeezed))
              found.push(`${name}[${attribute}=${value}]`);
            if (squeezed.startsWith('data:') && !(name === 'img' && SAFE_DATA.test(squeezed))) {
              found.push(`${name}[${attribute}=${value}]`);
            }
          }
        }
      },
      oncomment() {
        found.push('<!-- comment -->');
      },
      onprocessinginstruction(name) {
        found.push(`<${name}>`);
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return found.length ? found.join(', ') : null;
}
