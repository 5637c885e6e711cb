import { createWorkersAssetServer } from '../adapters/assets/workers.asset-server.js';
import { createR2BlobStore } from '../adapters/blob/r2.blob-store.js';
import { createD1Repositories } from '../adapters/db/sqlite/d1.js';
import { createJsonLogger } from '../adapters/runtime/system.runtime.js';
import { buildInfo } from '../config/build-info.js';
import type { Settings } from '../config/settings.js';
import type { AppDeps } from '../http/deps.js';
import { commonDeps } from './common.js';

/** The bindings wrangler.toml declares. String settings arrive as vars/secrets. */
export interface WorkerBindings {
  DB: D1Database;
  MEDIA: R2Bucket;
  ASSETS: Fetcher;
}

export function buildWorkerDeps(env: WorkerBindings, settings: Settings): AppDeps {
  const writeLog = (line: string) => console.log(line);
  return {
    settings,
    version: buildInfo('workers'),
    repos: createD1Repositories(env.DB),
    blobs: createR2BlobStore(env.MEDIA),
    assets: createWorkersAssetServer(env.ASSETS),
    logger: createJsonLogger(writeLog),
    ...commonDeps(settings, settings.jwtSecret ?? '', writeLog),
  };
}
