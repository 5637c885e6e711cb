import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { floorPartsSource } from './floor-parts.ts';
import { get } from './load.ts';
import { startWranglerDev, type WranglerDev } from './wrangler-dev.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The D1 floor's own persist directory: a copy of the seeded D1 made before
 * any workerd opens it (two workerd processes must not share one SQLite
 * file). Call right after seeding.
 */
export function copyD1ForFloor(state: string, dir: string): string {
  const floorState = path.join(dir, 'floor', 'state');
  cpSync(state, floorState, { recursive: true });
  return floorState;
}

/**
 * The Workers benchmark's two bare Workers, each under its own `wrangler
 * dev`: the bare Hono Worker answering the real answers as fixed documents
 * (../workers-baseline.ts, also its Cache API routes), and the D1 floor
 * (../workers-floor.ts) on its copy of the seeded D1, with the app's
 * mapping bundled by wrangler from worker/src. Each is checked to answer
 * exactly the real Worker's bytes.
 */
export async function startBareWorkers(opts: {
  dir: string;
  floorState: string;
  articleDoc: string;
  listDoc: string;
  articlePath: string;
  listPath: string;
  log: (msg: string) => void;
}): Promise<{ bare: WranglerDev; floor: WranglerDev }> {
  const { dir, articleDoc, listDoc, articlePath, listPath, log } = opts;
  const baselineDir = path.join(dir, 'baseline');
  mkdirSync(baselineDir, { recursive: true });
  const baselineConfig = path.join(baselineDir, 'wrangler.json');
  writeFileSync(
    baselineConfig,
    JSON.stringify({
      name: 'edge-cms-bench-baseline',
      main: path.join(root, 'scripts/bench/workers-baseline.ts'),
      compatibility_date: '2026-11-01',
      vars: { ARTICLE_DOC: articleDoc, LIST_DOC: listDoc },
    }),
  );
  const bare = await startWranglerDev({
    name: 'the bare Hono Worker',
    args: ['--config', baselineConfig, '--persist-to', path.join(baselineDir, 'state')],
    logFile: path.join(dir, 'baseline.log'),
    readyPath: '/v1/articles',
  });
  log(`Workers: the bare Hono Worker (workerd pid ${bare.workerPid}) on ${bare.url}`);

  const floorDir = path.join(dir, 'floor');
  writeFileSync(path.join(floorDir, 'floor-parts.ts'), floorPartsSource(root));
  writeFileSync(
    path.join(floorDir, 'entry.ts'),
    `import * as parts from './floor-parts.ts';
import { floorWorker } from '${root}/scripts/bench/workers-floor.ts';
export default floorWorker(parts);
`,
  );
  const floorConfig = path.join(floorDir, 'wrangler.json');
  writeFileSync(
    floorConfig,
    JSON.stringify({
      name: 'edge-cms-bench-floor',
      main: path.join(floorDir, 'entry.ts'),
      compatibility_date: '2026-11-01',
      // node:crypto for the app's SHA-1, as the real Worker has it.
      compatibility_flags: ['nodejs_compat'],
      // The binding as wrangler.toml names it, so that the copied D1 file is this one's.
      d1_databases: [{ binding: 'DB', database_name: 'edge-cms' }],
    }),
  );
  const floor = await startWranglerDev({
    name: 'the D1 floor Worker',
    args: ['--config', floorConfig, '--persist-to', opts.floorState],
    logFile: path.join(dir, 'floor.log'),
    readyPath: articlePath,
  });
  log(`Workers: the D1 floor Worker (workerd pid ${floor.workerPid}) on ${floor.url}`);

  for (const [w, p, doc] of [
    [bare, articlePath, articleDoc],
    [bare, listPath, listDoc],
    [bare, `/cache-api${articlePath}`, articleDoc],
    [bare, `/cache-api${listPath}`, listDoc],
    [bare, `/cache-api-one${articlePath}`, articleDoc],
    [bare, `/cache-api-one${listPath}`, listDoc],
    [floor, articlePath, articleDoc],
    [floor, listPath, listDoc],
    // The hit floor's first read stores the answer, the second is a hit: both the same bytes.
    [floor, `/hit${articlePath}`, articleDoc],
    [floor, `/hit${articlePath}`, articleDoc],
    [floor, `/hit${listPath}`, listDoc],
    [floor, `/hit${listPath}`, listDoc],
  ] as const) {
    const res = await get(w.url, p);
    if (res.status !== 200 || res.body !== doc) {
      let at = 0;
      while (at < doc.length && res.body[at] === doc[at]) at++;
      throw new Error(
        `${w === floor ? 'D1 floor' : 'bare'} Worker GET ${p}: not the same JSON (${res.status}); from byte ${at}: ` +
          `${JSON.stringify(res.body.slice(at - 300, at + 120))} instead of ${JSON.stringify(doc.slice(at - 300, at + 300))}`,
      );
    }
  }
  return { bare, floor };
}
