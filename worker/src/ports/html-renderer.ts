/** An article body's format, as the renderer takes it. */
export type BodyFormat = 'markdown' | 'html' | 'plaintext';

/** A library image as the stored html shows it (core/content/html-allowlist.ts has the same shape). */
export interface RenderedImage {
  width: number;
  height: number;
  srcset: string;
  alt: string;
  caption: string;
}

/** What a write's render knows besides the body: plain data, so it crosses to a thread as it is. */
export interface BodyContext {
  /** The library images the body names, by their root-relative src. */
  libraryImages: Record<string, RenderedImage>;
  headingIds: boolean;
}

/**
 * Turns an article body into the HTML a write stores (core/content/render.ts):
 * in the request on Workers, where each request has its own CPU budget; in a
 * worker thread with a time budget on Node, so the event loop never renders.
 * Callers bound the body first (MAX_RENDER_BYTES). Rejects with a
 * `payload_too_large` DomainError when the render ran over its time.
 */
export interface HtmlRenderer {
  render(body: string, format: BodyFormat, context?: BodyContext): Promise<string>;
  close?(): Promise<void>;
}
