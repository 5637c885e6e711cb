import { Worker } from 'node:worker_threads';
import { DomainError } from '../../core/domain/errors.js';
import type { VariantRenderer } from '../../ports/image-codec.js';
import type { RenderReply, RenderRequest } from './render.worker.js';
import { createRenderQueue, type Pending } from './render-queue.js';
import type { PoolStats, ThreadPoolOptions } from './thread-pool.options.js';
import { tsWorkerBootstrap } from './ts-worker-bootstrap.js';

export type { PoolStats, ThreadPoolOptions };

/** How often a running job's memory is looked at. */
const WATCH_MS = 20;

interface Thread {
  worker: Worker;
  ready: boolean;
  retired: boolean;
  /** What its last job left it holding (0 before the first). */
  heldBytes: number;
  /** Taken off the queue, its beforeStart still running: the thread is kept for it. */
  claimed: Pending | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  running:
    | (Pending & { id: number; timer: ReturnType<typeof setTimeout>; watch: ReturnType<typeof setInterval> })
    | null;
}

/** The decoder gave up, or was stopped over a limit: these bytes are refused (a 400, and the retry marker). */
class RenderRefused extends Error {}

/**
 * Variants on Node, off the event loop: jobs queue for a small pool of
 * worker threads, each running render.worker. A job over its time or memory
 * limit is stopped by terminating its thread (V8 stops wasm too), which also
 * frees every byte the thread held; the next job gets a fresh thread. After
 * a failed job, or one that left the thread's wasm memory grown past
 * `retainBytes`, the thread is replaced as well: wasm memory never shrinks,
 * and a trapped instance may be left inconsistent. Once idle (`idleMs`),
 * the pool gives back what is left above a fresh thread (armIdle).
 */
export function createThreadPoolRenderer(options: ThreadPoolOptions): VariantRenderer & { stats(): PoolStats } {
  const queue = createRenderQueue({
    max: options.maxQueue,
    retryAfterSeconds: Math.max(1, Math.ceil(options.timeLimitMs / 1000)),
    onAdmitted: () => pump(),
  });
  const groupThreads = Math.max(1, options.threads - 1);
  const threads: Thread[] = [];
  const counters = { started: 0, lastHeldBytes: 0, jobs: 0, idleChecks: 0 };
  let nextId = 1;
  let closed = false;

  function spawn(): Thread {
    const fromSources = options.workerUrl.pathname.endsWith('.ts');
    const worker = fromSources
      ? new Worker(tsWorkerBootstrap(options.workerUrl), {
          eval: true,
          execArgv: ['--disable-warning=ExperimentalWarning'],
          resourceLimits: heapLimits(),
        })
      : new Worker(options.workerUrl, { resourceLimits: heapLimits() });
    worker.unref(); // an idle thread never keeps the process alive
    const thread: Thread = {
      worker,
      ready: false,
      retired: false,
      heldBytes: 0,
      claimed: null,
      idleTimer: null,
      running: null,
    };
    worker.on('message', (reply: RenderReply) => onReply(thread, reply));
    worker.on('error', (err) => onGone(thread, err));
    worker.on('exit', (code) => onGone(thread, new Error(`render thread exited with ${code}`)));
    threads.push(thread);
    counters.started++;
    return thread;
  }

  /** The JS heap is small here (pixels live in wasm memory and typed arrays, which the watch covers). */
  function heapLimits() {
    const mb = Math.max(64, Math.floor(options.memoryLimitBytes / 2 ** 20 / 2));
    return { maxOldGenerationSizeMb: mb, maxYoungGenerationSizeMb: 16 };
  }

  /** A group below its share of the threads (all but one, or the only one). */
  const mayRun = (group: string) =>
    threads.filter((t) => !t.retired && (t.running ?? t.claimed)?.ticket.group === group).length < groupThreads;

  function pump(): void {
    while (queue.size > 0) {
      const idle = threads.find((t) => t.ready && !t.retired && !t.running && !t.claimed);
      if (idle) {
        const next = queue.take(mayRun);
        if (!next) return; // every waiting group has its share running
        claim(idle, next);
        continue;
      }
      const starting = threads.filter((t) => !t.ready && !t.retired).length;
      if (threads.filter((t) => !t.retired).length < options.threads && starting < queue.size) {
        spawn();
        continue;
      }
      return;
    }
  }

  /**
   * The job's own check when it leaves the queue (the variants service asks
   * whether its image was refused meanwhile), then the job, unless every
   * client waiting for it has gone by then.
   */
  function claim(thread: Thread, pending: Pending): void {
    clearIdle(thread);
    thread.claimed = pending;
    const checked = pending.ticket.beforeStart?.() ?? Promise.resolve();
    checked.then(
      () => {
        thread.claimed = null;
        if (closed) pending.reject(unavailable());
        else if (pending.ticket.signal?.aborted) queue.drop(pending);
        else if (thread.retired) queue.pushFront(pending);
        else return start(thread, pending);
        afterJob(thread);
      },
      (err: unknown) => {
        thread.claimed = null;
        pending.reject(err);
        afterJob(thread);
      },
    );
  }

  function afterJob(thread: Thread): void {
    pump();
    if (!thread.retired && !thread.running && !thread.claimed) armIdle(thread);
  }

  function start(thread: Thread, pending: Pending): void {
    const id = nextId++;
    counters.jobs++;
    clearIdle(thread);
    const timer = setTimeout(
      () => void stop(thread, new RenderRefused(`the render took longer than ${options.timeLimitMs} ms`)),
      options.timeLimitMs,
    );
    const watch = setInterval(() => {
      // Node 22.16+; before, only the time limit and V8's heap limit stop a runaway render.
      if (typeof thread.worker.getHeapStatistics !== 'function') return;
      thread.worker.getHeapStatistics().then(
        (stats) => {
          const held = (stats as { external_memory?: number }).external_memory ?? 0;
          if (held > options.memoryLimitBytes && thread.running?.id === id) {
            void stop(thread, new RenderRefused(`the render held more than ${options.memoryLimitBytes} bytes`));
          }
        },
        () => undefined, // the thread is going away: its exit is handled there
      );
    }, WATCH_MS);
    timer.unref();
    watch.unref();
    thread.running = { ...pending, id, timer, watch };
    const request: RenderRequest = { id, job: pending.job };
    thread.worker.postMessage(request);
  }

  /** Ends the running job (if any) with `err` and gives the thread up. */
  function stop(thread: Thread, err: unknown): Promise<unknown> {
    const running = thread.running;
    thread.running = null;
    if (running) {
      clearTimeout(running.timer);
      clearInterval(running.watch);
      running.reject(err);
    }
    return retire(thread);
  }

  function retire(thread: Thread): Promise<unknown> {
    if (thread.retired) return Promise.resolve();
    thread.retired = true;
    clearIdle(thread);
    threads.splice(threads.indexOf(thread), 1);
    const stopped = thread.worker.terminate().catch((err) => options.logError('render thread did not stop', err));
    pump();
    return stopped;
  }

  function onReply(thread: Thread, reply: RenderReply): void {
    if (reply.type === 'ready') {
      thread.ready = true;
      pump();
      if (!thread.running) armIdle(thread);
      return;
    }
    const running = thread.running;
    if (!running || running.id !== reply.id) return; // stopped meanwhile
    thread.running = null;
    clearTimeout(running.timer);
    clearInterval(running.watch);
    counters.lastHeldBytes = reply.heldBytes;
    thread.heldBytes = reply.heldBytes;
    if (reply.type === 'done') running.resolve(reply.bytes);
    else running.reject(new RenderRefused(reply.message));
    if (reply.type === 'failed' || reply.heldBytes > options.retainBytes) void retire(thread);
    else afterJob(thread);
  }

  function clearIdle(thread: Thread): void {
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
  }

  /**
   * Wasm memory never shrinks, so a thread that made a few-megapixel photo
   * keeps ~50-64 MiB (under retainBytes) for as long as it lives, and a
   * second thread started for a burst keeps its isolate too. Renders are
   * rare (each variant is made once, then cached), so once a burst is over
   * the memory goes back: the extra thread stops, the last one is swapped
   * for a fresh thread that warms up now, not on the next request.
   */
  function armIdle(thread: Thread): void {
    clearIdle(thread);
    thread.idleTimer = setTimeout(() => {
      thread.idleTimer = null;
      counters.idleChecks++;
      if (thread.retired || thread.running || thread.claimed || closed) return;
      const others = threads.some((t) => t !== thread && !t.retired);
      if (others) void retire(thread);
      else if (thread.heldBytes > options.idleRetainBytes) {
        void retire(thread);
        if (!threads.some((t) => !t.retired)) spawn();
      }
    }, options.idleMs);
    thread.idleTimer.unref();
  }

  /** The thread died on its own (out of heap, or it never started). */
  function onGone(thread: Thread, err: unknown): void {
    if (thread.retired) return;
    if (!thread.ready) {
      // It could not start at all: nothing is wrong with the images waiting, and
      // starting another would fail the same way. Refuse them; later jobs try again.
      options.logError('render thread could not start', err);
      for (const pending of queue.drain()) pending.reject(unavailable());
    }
    void stop(thread, new RenderRefused(`the render thread died: ${String(err)}`));
  }

  const unavailable = () => new DomainError('unavailable', 'Image variants cannot be made right now', undefined, 5);

  return {
    lossyWebp: options.lossyWebp,
    stats: () => ({
      ...counters,
      dropped: queue.dropped,
      queued: queue.size,
      running: threads.filter((t) => !t.retired && (t.running || t.claimed)).length,
      threads: threads.filter((t) => !t.retired).length,
    }),

    render: (job, ticket = { group: '' }) => (closed ? Promise.reject(unavailable()) : queue.admit(job, ticket)),

    async close() {
      closed = true;
      for (const pending of queue.drain()) pending.reject(unavailable());
      await Promise.all([...threads].map((thread) => stop(thread, unavailable())));
    },
  };
}
