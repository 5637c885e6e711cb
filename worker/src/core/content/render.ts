import MarkdownItParser, { type MarkdownIt, type StateCore } from 'markdown-it';
import type { ArticleFormat } from '../../wire/vocabulary.js';
import { isSafeUrl } from './safe-url.js';
import { type SanitizeOptions, sanitizeHtml } from './sanitize-html.js';

export type RenderOptions = SanitizeOptions;
export type { LibraryImage } from './sanitize-html.js';

/**
 * An article body as HTML that is safe to put into any page: the server's
 * `html` field and the admin's preview use this one function, in workerd,
 * Node and the browser (no DOM, no eval).
 *
 * - markdown: CommonMark with GFM tables, strikethrough and task lists,
 *   through markdown-it. Raw HTML inside Markdown is shown as text, as
 *   CommonMark's safe mode does (an author who wants HTML picks the html
 *   format); link targets pass isSafeUrl.
 * - html: the body sanitised (sanitize-html.ts).
 * - plaintext: escaped, blank lines make paragraphs, line breaks stay.
 *
 * Every format's output goes through the sanitiser last, so one allowlist
 * decides what can reach a page whatever the format.
 *
 * Linear in the body: markdown-it stops nesting at 100 levels (deeper
 * containers are not rendered), the sanitiser is one pass; the tests time
 * hostile bodies against plain ones.
 */
export function renderArticleHtml(body: string, format: ArticleFormat, options: RenderOptions = {}): string {
  if (format === 'html') return sanitizeHtml(body, options);
  if (format === 'plaintext') return sanitizeHtml(plainTextHtml(body), options);
  return sanitizeHtml(markdown().render(body), options);
}

let instance: MarkdownIt | undefined;

function markdown(): MarkdownIt {
  if (instance) return instance;
  // The 'default' preset: CommonMark plus tables and strikethrough, 100 levels of nesting at most.
  const md = new MarkdownItParser('default', { html: false, linkify: false, typographer: false });
  md.validateLink = (url) => isSafeUrl(url, 'link') || isSafeUrl(url, 'image');
  md.core.ruler.after('inline', 'task_list_items', taskListItems);
  instance = md;
  return md;
}

const TASK = /^\[([ xX])\](?:[ \t]+|$)/;

/**
 * GFM task list items: a list item whose paragraph starts with `[ ]` or
 * `[x]` starts with a disabled checkbox. Written here rather than taken
 * from a plugin: the ones published are unmaintained or pinned to older
 * markdown-it, and the rule is a look at the first token of each item.
 */
function taskListItems(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open') continue;
    if (tokens[i - 2]!.type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const task = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !task) continue;
    first.content = first.content.slice(task[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = task[1] === ' ' ? '<input type="checkbox"> ' : '<input type="checkbox" checked> ';
    inline.children!.unshift(box);
  }
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A body as paragraphs of escaped text: safe by construction (every `&`,
 * `<` and `>` escaped; only `<p>` and `<br>` made here), linear and cheap, so
 * it needs no sanitiser pass. What a body too large or too slow to render in
 * its format is shown as: the text is all there, its formatting is not.
 */
export function plainTextHtml(body: string): string {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escapeText(paragraph).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}
