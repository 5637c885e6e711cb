/** The Node render pool's settings (wiring/node.ts), and what it reports (tests, the reliability run). */
export interface ThreadPoolOptions {
  /** render.worker: the bundle's `render-worker.mjs`, or the `.ts` source (tests). */
  workerUrl: URL;
  /** Threads rendering at once; one group may use all but one (so 2: the threads run at a lower priority). */
  threads: number;
  /** A job running longer is stopped: its thread is terminated and replaced. */
  timeLimitMs: number;
  /**
   * A thread holding more wasm memory and buffers during a job is terminated;
   * its JS heap (small: pixels live outside it) has V8's own limit, half this.
   */
  memoryLimitBytes: number;
  /** A thread holding more than this after a job is replaced, which gives its wasm memory back. */
  retainBytes: number;
  /**
   * A thread without a job for this long gives its memory back: an extra
   * thread is stopped (the pool shrinks to one), the last one is replaced by
   * a fresh, warmed-up thread if it holds more than `idleRetainBytes`.
   */
  idleMs: number;
  /** What a thread may keep while idle: a little above what a fresh one holds after its warm-up. */
  idleRetainBytes: number;
  /**
   * Jobs waiting for a thread beyond this are refused (503): each holds its
   * original's bytes. One group (one original) may hold a quarter of it,
   * and run on all threads but one.
   */
  maxQueue: number;
  /** Whether the webp encoder is there (it is, in render.worker). */
  lossyWebp: boolean;
  logError: (message: string, err: unknown) => void;
}

export interface PoolStats {
  /** Threads started so far (each replacement is one more). */
  started: number;
  /** Threads there now (starting or ready). */
  threads: number;
  /** The memory the last finished job left its thread holding. */
  lastHeldBytes: number;
  /** Jobs handed to a thread so far. */
  jobs: number;
  /** Times a thread's idle time ran out and whether to keep it was decided. */
  idleChecks: number;
  /** Jobs dropped before they started, because no client waited any more. */
  dropped: number;
  /** Jobs waiting for a thread now, and jobs on a thread (or about to be). */
  queued: number;
  running: number;
}
