/** An article body's format, as the renderer takes it. */
export type BodyFormat = 'markdown' | 'html' | 'plaintext';

/**
 * Turns an article body into the HTML a write stores (core/content/render.ts):
 * in the request on Workers, where each request has its own CPU budget; in a
 * worker thread with a time budget on Node, so the event loop never renders.
 * Callers bound the body first (MAX_RENDER_BYTES). Rejects with a
 * `payload_too_large` DomainError when the render ran over its time.
 */
export interface HtmlRenderer {
  render(body: string, format: BodyFormat): Promise<string>;
  close?(): Promise<void>;
}
