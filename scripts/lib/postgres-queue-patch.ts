/**
 * The fix for postgres.js 3.4.9's queue (src/queue.js), pinned to that
 * version: docs/postgres-driver.md has the report and the measurements.
 *
 * The pool moves every connection between queues with `queue.remove(c)` then
 * `other.push(c)`, and takes them with `shift()`. 3.4.9's `shift()` only
 * blanks the slot it consumed and frees the array when the queue empties
 * completely, which a busy pool under steady load never does; `remove()`
 * searches from slot 0 through every blanked slot. Each query so pays for
 * every query before it: 23.6k → 6.2k queries/s over 60 s for the driver
 * alone. The fix: `remove()` searches only the live part, and `shift()` drops
 * the consumed prefix once it is at least half the array (amortised O(1)).
 *
 * Applied to node_modules by scripts/patch-dependencies.ts (postinstall) for
 * development and tests, and to the bundle by scripts/build-node.ts, so that
 * a production install never depends on an install script having run.
 */

export const POSTGRES_VERSION = '3.4.9';

/** The three copies of the file in the package: ESM, CommonJS, Cloudflare. */
export const QUEUE_FILES = ['src/queue.js', 'cjs/src/queue.js', 'cf/src/queue.js'] as const;

const BEFORE = [
  `    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },`,
  `      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }`,
] as const;

const AFTER = [
  `    remove: (x) => {
      // edge-cms patch: search the live part only (slots before index are spent)
      const at = xs.indexOf(x, index)
      return at === -1
        ? null
        : (xs.splice(at, 1), x)
    },`,
  `      if (index === xs.length) {
        index = 0
        xs = []
      } else if (index >= 64 && index * 2 >= xs.length) {
        // edge-cms patch: drop the spent prefix, so a queue that never empties stays small
        xs = xs.slice(index)
        index = 0
      } else {
        xs[index - 1] = undefined
      }`,
] as const;

const MARK = 'edge-cms patch:';

export const isPatched = (source: string): boolean => source.includes(MARK);

/**
 * The patched text of one queue.js; unchanged when already patched. Throws
 * when the file is not the one the patch was written for.
 */
export function patchQueueSource(source: string, file = 'queue.js'): string {
  if (isPatched(source)) return source;
  let out = source;
  for (const [i, before] of BEFORE.entries()) {
    if (out.split(before).length !== 2)
      throw new Error(
        `postgres ${file} is not the ${POSTGRES_VERSION} file the queue patch was written for (docs/postgres-driver.md)`,
      );
    out = out.replace(before, AFTER[i]!);
  }
  return out;
}
