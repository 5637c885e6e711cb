/**
 * The Node flags the server runs with, wherever it is started: the
 * supervisor's child and the bench's servers take them from here; `npm
 * start`, `npm run start:node` and the Dockerfile write them out
 * (test/unit/server-node-flags.test.ts and containers.test.ts check that
 * they agree).
 *
 * A young generation of up to 64 MiB per semi-space: every request
 * allocates its answer's strings (an article's body and html, the JSON of
 * the answer) and the framework's objects, and under load V8's default cap
 * made scavenges run often enough to cost 12–16 % of an uncached read's CPU
 * (the bench's uncached step, the same bundle with and without the flag in
 * the same rounds, four runs on a quiet machine; 32 MiB gained nothing, 128
 * no more than 64). The space grows only under that load: the resting
 * memory is unchanged.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
