/**
 * One run of `read` for every caller that asked while the previous run was
 * under way. Such a caller waits for the next run, not the current one: the
 * current run started before the caller asked, and could miss a write the
 * caller has already seen committed (a client that wrote through another
 * instance, then asks here). So every answer comes from a run that started
 * after its caller asked, as if each had run its own; under concurrent
 * callers the runs are fewer. A failed run fails every caller that shared it.
 *
 * For reads a process may share between requests: the Node server's; a
 * Worker's requests must not await each other's I/O.
 */
const ignore = () => undefined;

export function sharedRuns<T>(read: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const run = read();
    current = run;
    const settled = () => {
      if (current === run) current = null;
    };
    run.then(settled, settled);
    return run;
  };
  return () => {
    if (queued) return queued;
    if (!current) return start();
    const next = current.then(ignore, ignore).then(() => {
      queued = null;
      return start();
    });
    queued = next;
    return next;
  };
}
