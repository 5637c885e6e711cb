import { readFileSync } from 'node:fs';
import { get } from './load.ts';
import type { WranglerDev } from './wrangler-dev.ts';

/** Reads of the Workers benchmark (workers.ts) that check what each row claims: a hit is a hit, a miss a miss. */

/** The route the Worker's access line names for a request: `/*` when a cache hit answered before routing. */
async function routeOf(w: WranglerDev, requestId: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    for (const line of readFileSync(w.logFile, 'utf8').split('\n')) {
      if (!line.includes(requestId) || !line.includes('"message":"request"')) continue;
      const json = line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1);
      return (JSON.parse(json) as { route: string }).route;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no access line for request ${requestId} in ${w.logFile}`);
}

/** GET that must answer 200; its body and the route the Worker's access line names. */
export async function read(w: WranglerDev, p: string): Promise<{ body: string; route: string }> {
  const res = await get(w.url, p);
  if (res.status !== 200) throw new Error(`Worker GET ${p}: ${res.status} ${res.body.slice(0, 300)}`);
  const id = res.headers['x-request-id'];
  if (typeof id !== 'string') throw new Error(`Worker GET ${p}: no X-Request-Id`);
  return { body: res.body, route: await routeOf(w, id) };
}

/** Paths nobody asked for yet, one per request; running out would turn misses into hits. */
export function freshPaths(paths: string[], what: string) {
  let next = 0;
  return {
    fresh: () => paths[next++ % paths.length]!,
    check() {
      if (next > paths.length)
        throw new Error(
          `${what}: ${next} requests but ${paths.length} distinct URLs, so some were cache hits; seed more (--workers-articles)`,
        );
    },
  };
}
