import { plainTextHtml } from '../../core/content/render.js';
import { DomainError } from '../../core/domain/errors.js';
import type { HtmlRenderer } from '../../ports/html-renderer.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ArticleFormat } from './article.schema.js';
import type { Article, ArticlesRepository } from './articles.port.js';
import { libraryImagesOf } from './body-images.js';

export interface BodyRenderingDeps {
  htmlRenderer: HtmlRenderer;
  /** MAX_RENDER_BYTES: the largest body rendered, in UTF-8 bytes. */
  maxRenderBytes: number;
  /** MAX_MARKDOWN_BYTES: the same for Markdown (never above maxRenderBytes). */
  maxMarkdownBytes: number;
  logError: (message: string, err: unknown) => void;
  /** The library, for the facts the html shows of the images a body names. */
  repos: Pick<Repositories, 'images'>;
  /** IMAGE_VARIANT_WIDTHS: the widths a srcset offers. */
  variantWidths: readonly number[];
}

/** UTF-8 bytes of a string, counted without building them. */
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // 0x80–0x7ff take 2 bytes, the rest of the BMP 3; a surrogate pair (4) is counted 2 + 2.
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * Renders bodies for writes, bounded before any work starts. The body itself
 * has no length limit (the product's rule), so nothing is refused: a body
 * over MAX_MARKDOWN_BYTES (Markdown) or MAX_RENDER_BYTES (the others), or
 * one the renderer stops (a thread with a time budget on Node), is stored
 * with its text as escaped paragraphs (`plainTextHtml`, linear), and the log
 * says which limit it met.
 *
 * The html is made once, here: the library images the body names get their
 * stored size, srcset and caption (body-images.ts), headings get ids; a
 * read only joins links with the origin.
 */
export function createBodyRendering(deps: BodyRenderingDeps) {
  const { htmlRenderer } = deps;

  async function render(body: string, format: ArticleFormat): Promise<string> {
    const [limit, name] =
      format === 'markdown' ? [deps.maxMarkdownBytes, 'MAX_MARKDOWN_BYTES'] : [deps.maxRenderBytes, 'MAX_RENDER_BYTES'];
    // A string's UTF-8 form is at least as long as it: only a short body needs no count.
    if (body.length > limit || utf8Bytes(body) > limit) {
      deps.logError(`a ${format} body over ${limit} bytes (${name}) is shown as plain text`, null);
      return plainTextHtml(body);
    }
    try {
      const libraryImages = await libraryImagesOf(
        body,
        (names) => deps.repos.images.findByFilenames(names),
        deps.variantWidths,
      );
      return await htmlRenderer.render(body, format, { libraryImages, headingIds: true });
    } catch (err) {
      // The renderer's own bound (RENDER_TIME_LIMIT_MS, its memory): the text stays, its formatting goes.
      if (!(err instanceof DomainError) || err.code !== 'payload_too_large') throw err;
      deps.logError(`a ${format} body the renderer stopped is shown as plain text`, err);
      return plainTextHtml(body);
    }
  }

  /**
   * A row from before writes stored the html gets it once, here: rendered
   * (bounded as a write is) and stored, so no later read renders it again.
   */
  async function stored(article: Article, repo: Pick<ArticlesRepository, 'fillHtml'>): Promise<Article> {
    if (article.html !== null) return article;
    const html = await render(article.body, article.format);
    return { ...article, html: await repo.fillHtml(article.id, article.version, article.body, html) };
  }

  return { render, stored };
}

export type BodyRendering = ReturnType<typeof createBodyRendering>;
