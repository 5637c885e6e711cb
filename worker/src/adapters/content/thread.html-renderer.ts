import { Worker } from 'node:worker_threads';
import { DomainError } from '../../core/domain/errors.js';
import type { BodyContext, BodyFormat, HtmlRenderer } from '../../ports/html-renderer.js';
import { tsWorkerBootstrap } from '../image/ts-worker-bootstrap.js';

/** What the render thread (wiring/html-render.thread.ts) is sent, and answers. */
export interface HtmlRenderRequest {
  id: number;
  body: string;
  format: BodyFormat;
  context?: BodyContext | undefined;
}
export type HtmlRenderReply = { ready: true } | { id: number; html: string } | { id: number; failed: string };

export interface ThreadHtmlRendererOptions {
  /** The thread's entry: the bundle's `html-render-worker.mjs`, or the `.ts` source (tests). */
  workerUrl: URL;
  /** A render running longer is stopped (its thread terminated and replaced) and refused. */
  timeLimitMs: number;
  /** Bodies waiting beyond this are refused (503): each holds its text. */
  maxQueue: number;
  /** The thread's V8 heap: a render is a few times its body (tokens, then the HTML). */
  heapLimitMb: number;
  logError: (message: string, err: unknown) => void;
}

interface Job {
  request: HtmlRenderRequest;
  resolve: (html: string) => void;
  reject: (err: unknown) => void;
}

/**
 * Article bodies rendered on Node, off the event loop: one worker thread
 * renders one body at a time, the rest wait in a bounded queue. A render
 * over its time is stopped by terminating the thread (the only way to stop
 * synchronous code), refused with a 413 that names the limit, and the next
 * body gets a fresh thread. One thread, because renders are rare (writes
 * only; reads serve the stored HTML) and the event loop needs the other core.
 */
export function createThreadHtmlRenderer(options: ThreadHtmlRendererOptions): HtmlRenderer & { started(): number } {
  const queue: Job[] = [];
  let worker: Worker | undefined;
  /** The thread said it is ready: its start-up and warm-up never count against a render's time. */
  let ready = false;
  let running: (Job & { timer: ReturnType<typeof setTimeout> }) | undefined;
  let nextId = 1;
  let started = 0;
  let closed = false;

  const unavailable = (message: string) => new DomainError('unavailable', message, undefined, 1);

  function spawn(): Worker {
    const fromSources = options.workerUrl.pathname.endsWith('.ts');
    const resourceLimits = { maxOldGenerationSizeMb: options.heapLimitMb, maxYoungGenerationSizeMb: 16 };
    const thread = fromSources
      ? new Worker(tsWorkerBootstrap(options.workerUrl), {
          eval: true,
          execArgv: ['--disable-warning=ExperimentalWarning'],
          resourceLimits,
        })
      : new Worker(options.workerUrl, { resourceLimits });
    thread.unref(); // an idle thread never keeps the process alive
    thread.on('message', (reply: HtmlRenderReply) => onReply(thread, reply));
    thread.on('error', (err) => onGone(thread, err));
    thread.on('exit', (code) => onGone(thread, new Error(`the render thread exited with ${code}`)));
    started++;
    return thread;
  }

  function pump(): void {
    if (running || closed || queue.length === 0) return;
    if (!worker) {
      ready = false;
      worker = spawn();
    }
    if (!ready) return;
    const job = queue.shift()!;
    const timer = setTimeout(() => {
      const message = `Rendering this body took longer than ${options.timeLimitMs} ms (RENDER_TIME_LIMIT_MS); nothing was written`;
      finish(new DomainError('payload_too_large', message, [{ path: 'body', message }]));
      void replace();
    }, options.timeLimitMs);
    timer.unref();
    running = { ...job, timer };
    worker.postMessage(job.request);
  }

  /** Settles the running job; `outcome` is the html or the error. */
  function finish(outcome: string | Error): void {
    const job = running;
    running = undefined;
    if (!job) return;
    clearTimeout(job.timer);
    if (typeof outcome === 'string') job.resolve(outcome);
    else job.reject(outcome);
  }

  /** Stops the current thread; the next job starts a new one. */
  async function replace(): Promise<void> {
    const old = worker;
    worker = undefined;
    ready = false;
    pump();
    await old?.terminate().catch((err) => options.logError('render thread did not stop', err));
  }

  function onReply(thread: Worker, reply: HtmlRenderReply): void {
    if (thread !== worker) return; // stopped meanwhile
    if ('ready' in reply) {
      ready = true;
      pump();
      return;
    }
    if (running?.request.id !== reply.id) return;
    if ('html' in reply) finish(reply.html);
    else finish(new Error(`the render failed: ${reply.failed}`));
    pump();
  }

  /** The thread died on its own: out of heap on this body, or it could not start. */
  function onGone(thread: Worker, err: unknown): void {
    if (thread !== worker) return;
    worker = undefined;
    if (!ready) {
      // It could not start: another would fail the same way. Refuse what waits; later writes try again.
      options.logError('render thread could not start', err);
      for (const job of queue.splice(0)) job.reject(unavailable('Article bodies cannot be rendered right now'));
      return;
    }
    if (running) {
      options.logError('render thread died', err);
      const message = 'Rendering this body ran out of memory; nothing was written';
      finish(new DomainError('payload_too_large', message, [{ path: 'body', message }]));
    }
    pump();
  }

  return {
    started: () => started,
    render(body, format, context) {
      if (closed) return Promise.reject(unavailable('The server is stopping'));
      if (queue.length >= options.maxQueue) return Promise.reject(unavailable('Too many bodies are being rendered'));
      return new Promise<string>((resolve, reject) => {
        queue.push({ request: { id: nextId++, body, format, context }, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(unavailable('The server is stopping'));
      finish(unavailable('The server is stopping'));
      await replace();
    },
  };
}
