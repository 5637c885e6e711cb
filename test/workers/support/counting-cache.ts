/**
 * A Cache with a count of its reads (`match`): what a request costs in
 * Cache API lookups, observed from outside the app.
 */
export function countingCache(cache: Cache): { cache: Cache; matches(): number } {
  let matches = 0;
  const counted = new Proxy(cache, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop === 'match') matches += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { cache: counted, matches: () => matches };
}
