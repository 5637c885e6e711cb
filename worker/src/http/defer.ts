import type { Context } from 'hono';
import type { Defer } from '../ports/runtime.js';

/** waitUntil where the runtime offers one (Workers), else the process-wide fallback (Node). */
export function deferFor(c: Context, fallback: Defer): Defer {
  let ctx: { waitUntil(p: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    // Hono throws when there is no execution context (Node, tests).
  }
  return ctx ? (p) => ctx.waitUntil(p) : fallback;
}
