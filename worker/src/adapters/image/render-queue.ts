import { DomainError } from '../../core/domain/errors.js';
import type { RenderJob, RenderTicket } from '../../ports/image-codec.js';

/** A job waiting for a render thread, and its caller's promise. */
export interface Pending {
  job: RenderJob;
  ticket: RenderTicket;
  resolve: (bytes: Uint8Array) => void;
  reject: (err: unknown) => void;
}

export interface RenderQueue {
  readonly size: number;
  /** Jobs dropped before they started, because no client waited any more. */
  readonly dropped: number;
  /** Waits for a thread (`onAdmitted` is told); refused at once with a 503 when the queue or the job's group is full. */
  admit(job: RenderJob, ticket: RenderTicket): Promise<Uint8Array>;
  /** The head of the first group, in turn order, that `mayRun` allows; that group goes last. */
  take(mayRun: (group: string) => boolean): Pending | undefined;
  /** Back at the head of its group (its thread went away before it started). */
  pushFront(pending: Pending): void;
  /** Ends a job no client waits for any more, unstarted. */
  drop(pending: Pending): void;
  drain(): Pending[];
}

/**
 * Waiting jobs, by group (one original's bytes), taken in turns: the group
 * served longest ago (or never) goes first, so a burst of requests for one
 * image waits behind the other images' jobs instead of in front of them. Bounded twice:
 * in all (`max`) and per group (a quarter of it), so one image cannot fill
 * the queue either. A waiting job whose signal aborts (its last client has
 * gone) leaves at once; a started one runs to its end.
 */
export function createRenderQueue(options: {
  max: number;
  /** How long a client should wait before asking again: until a thread is free at the latest. */
  retryAfterSeconds: number;
  onAdmitted: () => void;
}): RenderQueue {
  const groupMax = Math.max(1, Math.ceil(options.max / 4));
  const groups = new Map<string, Pending[]>();
  /**
   * When each group was last served (a counter), the most recent last; the
   * oldest are forgotten beyond a bound, and a forgotten group counts as
   * never served, as one that long waited would.
   */
  const served = new Map<string, number>();
  const memory = 2 * options.max + 16;
  let turn = 0;
  let size = 0;
  let dropped = 0;

  function remove(pending: Pending): boolean {
    const waiting = groups.get(pending.ticket.group);
    const at = waiting?.indexOf(pending) ?? -1;
    if (!waiting || at < 0) return false;
    waiting.splice(at, 1);
    if (waiting.length === 0) groups.delete(pending.ticket.group);
    size--;
    return true;
  }

  const queue: RenderQueue = {
    get size() {
      return size;
    },
    get dropped() {
      return dropped;
    },

    admit(job, ticket) {
      const { signal, group } = ticket;
      if (signal?.aborted) return Promise.reject(abandoned());
      const waiting = groups.get(group);
      if (size >= options.max || (waiting?.length ?? 0) >= groupMax) {
        const message = 'Too many image variants are waiting to be made';
        return Promise.reject(new DomainError('unavailable', message, undefined, options.retryAfterSeconds));
      }
      return new Promise<Uint8Array>((resolve, reject) => {
        const onAbort = () => {
          if (remove(pending)) queue.drop(pending);
        };
        const settled = () => signal?.removeEventListener('abort', onAbort);
        const pending: Pending = {
          job,
          ticket,
          resolve: (bytes) => {
            settled();
            resolve(bytes);
          },
          reject: (err) => {
            settled();
            reject(err);
          },
        };
        if (waiting) waiting.push(pending);
        else groups.set(group, [pending]);
        size++;
        signal?.addEventListener('abort', onAbort, { once: true });
        options.onAdmitted();
      });
    },

    take(mayRun) {
      let next: string | undefined;
      let oldest = Number.POSITIVE_INFINITY;
      for (const group of groups.keys()) {
        const last = served.get(group) ?? -1;
        // Strictly older: between equals, the group that came first.
        if (last < oldest && mayRun(group)) [next, oldest] = [group, last];
      }
      if (next === undefined) return undefined;
      const waiting = groups.get(next)!;
      const pending = waiting.shift()!;
      if (waiting.length === 0) groups.delete(next);
      served.delete(next);
      served.set(next, ++turn);
      if (served.size > memory) served.delete(served.keys().next().value!);
      size--;
      return pending;
    },

    pushFront(pending) {
      const waiting = groups.get(pending.ticket.group);
      if (waiting) waiting.unshift(pending);
      else groups.set(pending.ticket.group, [pending]);
      size++;
    },

    drop(pending) {
      dropped++;
      pending.reject(abandoned());
    },

    drain() {
      const all = [...groups.values()].flat();
      groups.clear();
      size = 0;
      return all;
    },
  };
  return queue;
}

const abandoned = () => new DomainError('unavailable', 'No client waits for this variant any more');
