import { parentPort } from 'node:worker_threads';
import type { HtmlRenderReply, HtmlRenderRequest } from '../adapters/content/thread.html-renderer.js';
import { lowerThisThreadsPriority } from '../adapters/runtime/thread-priority.js';
import { renderArticleHtml } from '../core/content/render.js';

/**
 * The render thread on Node (adapters/content/thread.html-renderer.ts starts
 * it): the core's renderer, off the event loop. It lives in wiring/ because
 * it puts the core's function behind an adapter's message protocol, which
 * only the composition may do (docs/architecture.md#dependency-direction).
 */
if (!parentPort) throw new Error('html-render.thread runs as a worker thread');
const port = parentPort;

// The event loop's thread gets the core first when both want it.
lowerThisThreadsPriority();

port.on('message', ({ id, body, format, context }: HtmlRenderRequest) => {
  let reply: HtmlRenderReply;
  try {
    reply = { id, html: renderArticleHtml(body, format, context) };
  } catch (err) {
    reply = { id, failed: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});

// One small render first: the renderer's first call compiles its code paths, which counts against no body's time.
renderArticleHtml('*warm* up', 'markdown');
port.postMessage({ ready: true } satisfies HtmlRenderReply);
