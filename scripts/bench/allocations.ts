import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildNode } from '../build-node.ts';
import { bundleFloorParts } from './lib/floor-parts.ts';
import { Inspector } from './lib/inspector.ts';
import { autocannonRun, closeClient } from './lib/load.ts';
import { freePort, installExitHandlers, runBench, startServer } from './lib/processes.ts';
import { sampleReads } from './lib/sample-reads.ts';
import { appRenderer, seedDatabase } from './lib/seed.ts';
import { benchWorkspace } from './lib/workspace.ts';

/**
 * What an uncached article read allocates, by function: the server without
 * its read cache and the floor server (floor-server.ts) on the same seeded
 * SQLite file, each under load while V8's sampling heap profiler runs
 * through its inspector with the objects later collected counted too
 * (HeapProfiler.startSampling with both `includeObjectsCollectedBy…`
 * flags), so that garbage shows, not only what survives. Prints KiB per
 * request and the functions that allocate the most, in bytes per request.
 */
const { values: opt } = parseArgs({
  options: {
    articles: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '5' },
    top: { type: 'string', default: '25' },
  },
});
const FLOOR_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor-server.ts');
const log = (msg: string) => process.stdout.write(`bench: ${msg}\n`);

interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampledNode[];
}

async function main() {
  if (await buildNode()) log('built dist/node/server.mjs');
  const { tmp, dbFile, serverOpts } = benchWorkspace('edge-cms-bench-allocations-');
  await (await startServer(serverOpts('the Node server (migrating)'))).stop();
  const seeded = seedDatabase(dbFile, { articles: Number(opt.articles), renderHtml: await appRenderer() });
  const inspectable = async () => {
    const port = await freePort();
    return { port, NODE_OPTIONS: `--inspect=127.0.0.1:${port}` };
  };
  const [appPort, floorPort] = [await inspectable(), await inspectable()];
  const server = await startServer(
    serverOpts('the Node server, read cache off', { PUBLIC_READ_CACHE: 'off', NODE_OPTIONS: appPort.NODE_OPTIONS }),
  );
  const floorParts = await bundleFloorParts();
  const floor = await startServer(
    serverOpts('the floor', { FLOOR_PARTS: floorParts, NODE_OPTIONS: floorPort.NODE_OPTIONS }, FLOOR_SCRIPT),
  );
  const { sampleIds } = await sampleReads(server.url, seeded.onlineIdsNewestFirst, tmp, log);
  const paths = sampleIds.map((id) => `/v1/articles/${id}`);
  for (const [name, target, port] of [
    ['server', server, appPort.port],
    ['floor', floor, floorPort.port],
  ] as const) {
    // Warmed first, so that start-up and compilation are not in the profile.
    await autocannonRun(target.url, paths, { connections: 10, seconds: 3 });
    const inspector = await Inspector.open(`http://127.0.0.1:${port}`);
    await inspector.send('HeapProfiler.enable');
    await inspector.send('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const run = await autocannonRun(target.url, paths, { connections: 10, seconds: Number(opt.seconds) });
    const { profile } = await inspector.send<{ profile: { head: SampledNode } }>('HeapProfiler.stopSampling');
    inspector.close();
    const bytes = new Map<string, number>();
    let total = 0;
    const walk = (n: SampledNode) => {
      const f = n.callFrame;
      const at = `${f.functionName || '(anonymous)'} ${f.url.slice(f.url.lastIndexOf('/') + 1)}:${f.lineNumber + 1}`;
      bytes.set(at, (bytes.get(at) ?? 0) + n.selfSize);
      total += n.selfSize;
      for (const c of n.children) walk(c);
    };
    walk(profile.head);
    const per = (b: number) => b / run.requests;
    console.log(`\n${name}: ${run.requests} reads, ${(per(total) / 1024).toFixed(1)} KiB allocated per read`);
    for (const [at, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, Number(opt.top)))
      console.log(`${per(b).toFixed(0).padStart(7)} B  ${at}`);
  }
}

installExitHandlers();
runBench(async () => {
  await main();
  closeClient();
});
