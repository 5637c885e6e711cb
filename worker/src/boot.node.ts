import { enableCompileCache } from 'node:module';

/**
 * The Node server's entry (dist/node/server.mjs): turns on Node's on-disk
 * compile cache, then loads the server (entry.node.ts). The cache must be on
 * before the server's modules are compiled, hence this separate first step.
 *
 * Compiling the bundle was the largest single part of a start-up (≈ 45 ms of
 * CPU of ≈ 230 ms on the bench machine, docs/benchmarks.md, start-up): from
 * the second start on, V8 reads the compiled code back instead. The cache
 * lives where NODE_COMPILE_CACHE says, else in the system's temp folder;
 * entries are checked against the source, so a new release never runs stale
 * code, and a folder that cannot be written only means no cache
 * (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
 */
enableCompileCache();

await import('./entry.node.js');
