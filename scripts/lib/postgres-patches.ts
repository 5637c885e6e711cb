/**
 * The fixes for postgres.js 3.4.9, pinned to that version:
 * docs/postgres-driver.md has the reports and the measurements.
 *
 * - The queue (src/queue.js). The pool moves every connection between queues
 *   with `queue.remove(c)` then `other.push(c)`, and takes them with
 *   `shift()`. 3.4.9's `shift()` only blanks the slot it consumed and frees
 *   the array when the queue empties completely, which a busy pool under
 *   steady load never does; `remove()` searches from slot 0 through every
 *   blanked slot. Each query so pays for every query before it: 23.6k → 6.2k
 *   queries/s over 60 s for the driver alone. The fix: `remove()` searches
 *   only the live part, and `shift()` drops the consumed prefix once it is at
 *   least half the array (amortised O(1)).
 * - The write after close (src/connection.js). When the server closes a
 *   connection in the middle of a transaction, `closed()` nulls the socket and
 *   rejects the query; `begin()` then sends its own ROLLBACK, whose write is
 *   deferred with `setImmediate` and dereferences the null socket: an
 *   uncaught TypeError that ends the process. The fix: a write without a
 *   socket settles the waiting queries with CONNECTION_CLOSED instead.
 *
 * Applied to node_modules by scripts/patch-dependencies.ts (postinstall) for
 * development and tests, and to the bundle by scripts/build-node.ts, so that
 * a production install never depends on an install script having run.
 */

export const POSTGRES_VERSION = '3.4.9';

interface Edit {
  before: string;
  after: string;
}

const QUEUE_EDITS: readonly Edit[] = [
  {
    before: `    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },`,
    after: `    remove: (x) => {
      // edge-cms patch: search the live part only (slots before index are spent)
      const at = xs.indexOf(x, index)
      return at === -1
        ? null
        : (xs.splice(at, 1), x)
    },`,
  },
  {
    before: `      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }`,
    after: `      if (index === xs.length) {
        index = 0
        xs = []
      } else if (index >= 64 && index * 2 >= xs.length) {
        // edge-cms patch: drop the spent prefix, so a queue that never empties stays small
        xs = xs.slice(index)
        index = 0
      } else {
        xs[index - 1] = undefined
      }`,
  },
];

const CONNECTION_EDITS: readonly Edit[] = [
  {
    before: `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`,
    after: `  function nextWrite(fn) {
    if (socket === null) {
      // edge-cms patch: the connection closed (a ROLLBACK after the server hung up,
      // sent on a later tick): reject what waits on it instead of throwing where
      // nothing can catch it
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
    const x = socket.write(chunk, fn)`,
  },
];

/** Each patched file in the package (ESM, CommonJS, Cloudflare copies) and its edits. */
const PATCHES: Readonly<Record<string, readonly Edit[]>> = {
  'src/queue.js': QUEUE_EDITS,
  'cjs/src/queue.js': QUEUE_EDITS,
  'cf/src/queue.js': QUEUE_EDITS,
  'src/connection.js': CONNECTION_EDITS,
  'cjs/src/connection.js': CONNECTION_EDITS,
  'cf/src/connection.js': CONNECTION_EDITS,
};

export const PATCHED_FILES = Object.keys(PATCHES);
export const QUEUE_FILES = PATCHED_FILES.filter((f) => f.endsWith('queue.js'));
export const CONNECTION_FILES = PATCHED_FILES.filter((f) => f.endsWith('connection.js'));

const MARK = 'edge-cms patch:';

function patchedFileOf(file: string): string {
  const rel = PATCHED_FILES.find((f) => file.replaceAll('\\', '/').endsWith(f));
  if (rel === undefined) throw new Error(`postgres ${file}: no patch for this file`);
  return rel;
}

export const isPatched = (source: string): boolean => source.includes(MARK);

/**
 * The patched text of one of the package's files, named by its path (ending
 * in a key of PATCHES); unchanged when already patched. Throws when the file
 * is not the one the patch was written for.
 */
export function patchPostgresSource(source: string, file: string): string {
  const rel = patchedFileOf(file);
  if (isPatched(source)) return source;
  let out = source;
  for (const { before, after } of PATCHES[rel]!) {
    if (out.split(before).length !== 2)
      throw new Error(
        `postgres ${file} is not the ${POSTGRES_VERSION} file the patch was written for (docs/postgres-driver.md)`,
      );
    out = out.replace(before, () => after);
  }
  return out;
}

/** The original text of a patched file: for the test that shows what the patch prevents. */
export function unpatchPostgresSource(source: string, file: string): string {
  if (!isPatched(source)) return source;
  let out = source;
  for (const { before, after } of PATCHES[patchedFileOf(file)]!) out = out.replace(after, () => before);
  return out;
}
