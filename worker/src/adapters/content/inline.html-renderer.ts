import type { BodyFormat, HtmlRenderer } from '../../ports/html-renderer.js';

/**
 * Renders in the caller's own turn: Workers (each request has its own CPU
 * budget, and there are no threads to hand the work to) and tests. The
 * render function is the core's, passed in by the wiring.
 */
export function createInlineHtmlRenderer(render: (body: string, format: BodyFormat) => string): HtmlRenderer {
  return { render: async (body, format) => render(body, format) };
}
