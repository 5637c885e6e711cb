import { env } from 'cloudflare:test';
import { parseSettings } from '../../../worker/src/config/settings.js';
import type { AppDeps } from '../../../worker/src/feature-api/deps.js';
import { buildWorkerDeps } from '../../../worker/src/wiring/worker.js';
import { type ApiHarness, harnessFor } from '../../support/api-harness.js';
import { TABLES_CHILD_FIRST } from '../../support/tables.js';

/** Each suite starts from an empty D1 database and R2 bucket, like a fresh deployment. */
async function reset(): Promise<void> {
  await env.DB.batch(TABLES_CHILD_FIRST.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ cursor });
    if (page.objects.length) await env.MEDIA.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

export const WORKER_MAX_UPLOAD_BYTES = 64 * 1024;

/** `adjust` swaps in what a test needs instead (an edge cache with a purge target of its own). */
export async function workerHarness(
  more: Record<string, string> = {},
  adjust: (deps: AppDeps) => AppDeps = (deps) => deps,
): Promise<ApiHarness> {
  await reset();
  const settings = parseSettings({ ...env, MAX_UPLOAD_BYTES: String(WORKER_MAX_UPLOAD_BYTES), ...more }, 'workers');
  const deps = adjust(buildWorkerDeps(env, settings));
  // The edge cache outlives the tables it was filled from: a fresh store starts a fresh generation.
  await deps.edgeCache?.changed(null);
  const database = {
    dialect: 'sqlite' as const,
    query: async (statement: string) => (await env.DB.prepare(statement).all<Record<string, unknown>>()).results,
  };
  return harnessFor(deps, reset, { ownPublicUrl: 'PUBLIC_URL' in more, database });
}
