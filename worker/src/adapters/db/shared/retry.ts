/**
 * Re-runs a transaction that the server aborted to break a deadlock or a
 * serialization conflict. Such an abort rolled everything back, so running
 * the whole transaction again is safe.
 */
export async function retryTransient<T>(run: () => Promise<T>, isTransient: (err: unknown) => boolean): Promise<T> {
  const attempts = 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= attempts || !isTransient(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
