import type { BodyContext, BodyFormat, HtmlRenderer } from '../../ports/html-renderer.js';

/**
 * Renders in the caller's own turn: Workers (each request has its own CPU
 * budget, and there are no threads to hand the work to) and tests. The
 * render function is the core's, passed in by the wiring.
 */
export function createInlineHtmlRenderer(
  render: (body: string, format: BodyFormat, context?: BodyContext) => string,
): HtmlRenderer {
  return { render: async (body, format, context) => render(body, format, context) };
}
