import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';

/**
 * Middleware that never answers itself (it goes on or throws) run in turn as
 * one of Hono's layers: each layer is an async step with its promises, and
 * under the log scope's AsyncLocalStorage every promise costs more; a public
 * read went through a dozen (docs/benchmarks.md). A step that could answer
 * itself must stay a layer of its own, where Hono keeps its answer.
 */
export function inTurn(steps: readonly MiddlewareHandler<AppEnv>[]): MiddlewareHandler<AppEnv> {
  if (steps.length === 1) return steps[0]!;
  return (c, next) => {
    const from = (i: number): Promise<void> =>
      i === steps.length ? next() : (steps[i]!(c, () => from(i + 1)) as Promise<void>);
    return from(0);
  };
}

/** The chain with each run of consecutive passing steps in one layer. */
export function layers(
  chain: readonly MiddlewareHandler<AppEnv>[],
  passing: ReadonlySet<MiddlewareHandler<AppEnv>>,
): MiddlewareHandler<AppEnv>[] {
  const out: MiddlewareHandler<AppEnv>[] = [];
  let run: MiddlewareHandler<AppEnv>[] = [];
  for (const step of chain) {
    if (passing.has(step)) {
      run.push(step);
      continue;
    }
    if (run.length > 0) out.push(inTurn(run));
    run = [];
    out.push(step);
  }
  if (run.length > 0) out.push(inTurn(run));
  return out;
}
