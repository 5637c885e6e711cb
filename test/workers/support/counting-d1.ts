/**
 * env.DB with a count of the statements it runs (each `all`, `first`,
 * `raw` or `run`, and each statement of a `batch`), through sessions too:
 * what a request costs in D1 round trips, observed from outside the app.
 */
export function countingD1(db: D1Database): { db: D1Database; count(): number } {
  let count = 0;
  const RUNS = new Set(['all', 'first', 'raw', 'run']);
  const MAKERS = new Set(['prepare', 'bind', 'withSession']);
  // D1 checks that what batch() gets are its own statements: they go back unwrapped.
  const unwrap = new WeakMap<object, object>();
  const plain = (a: unknown): unknown =>
    Array.isArray(a) ? a.map(plain) : (a !== null && typeof a === 'object' && unwrap.get(a)) || a;
  const wrap = <T extends object>(target: T): T => {
    const wrapped = new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (RUNS.has(String(prop))) count += 1;
          if (prop === 'batch') count += (args[0] as unknown[]).length;
          const out = (value as (...a: unknown[]) => unknown).apply(t, args.map(plain));
          return MAKERS.has(String(prop)) ? wrap(out as object) : out;
        };
      },
    });
    unwrap.set(wrapped, target);
    return wrapped;
  };
  return { db: wrap(db), count: () => count };
}
