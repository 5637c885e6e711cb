/**
 * The Node flags the server runs with, wherever it is started: the
 * supervisor's child, the bench's servers and the tests' servers take them
 * from here; `npm start`, `npm run start:node` and the Dockerfile write
 * them out (test/unit/server-node-flags.test.ts and containers.test.ts
 * check that they agree).
 *
 * A young generation of up to 64 MiB per semi-space: every request
 * allocates its answer's strings (an article's body and html, the JSON of
 * the answer) and the framework's objects, and under load V8's default cap
 * made scavenges run often enough to cost 12–16 % of an uncached read's CPU
 * (the bench's uncached step, the same bundle with and without the flag in
 * the same rounds, four runs on a quiet machine; 32 MiB gained nothing, 128
 * no more than 64). The space grows only under that load: the resting
 * memory is unchanged.
 *
 * On Node 22 (and 23), `--experimental-async-context-frame` as well: the
 * request's log scope and database deadline are AsyncLocalStorage, which
 * without it works through promise hooks that every promise of the process
 * pays once any store has run. With it AsyncLocalStorage keeps its value
 * in V8's continuation data, as Node 24 does by default (and there the
 * flag is an error: "bad option"). An uncached article read took 10–13 %
 * less CPU with it, the same bundle in the same rounds (`reads.ts
 * --before`, twice; the same server on both sides differed by under 1 %).
 */
export function serverNodeFlags(version: string = process.versions.node): string[] {
  const major = Number(version.split('.')[0]);
  const flags = ['--max-semi-space-size=64'];
  if (major < 24) flags.push('--experimental-async-context-frame');
  return flags;
}

/** The flags for the Node running this script: the servers it starts use the same binary. */
export const SERVER_NODE_FLAGS: readonly string[] = serverNodeFlags();
