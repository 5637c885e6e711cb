import { Hono } from 'hono';
import type { AppDeps } from '../../app/deps.js';
import type { AppEnv } from '../../http/env.js';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import type { VersionDto } from './system.schema.js';

const READY_TIMEOUT_MS = 2000;

async function check(name: string, probe: () => Promise<void>): Promise<[string, boolean]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} timed out`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return [name, true];
  } catch {
    return [name, false];
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes = (deps: Pick<AppDeps, 'repos' | 'blobs'>) =>
  new Hono<AppEnv>()
    .get('/healthz', (c) => c.json({ ok: true }))
    .get('/readyz', async (c) => {
      const checks = Object.fromEntries(
        await Promise.all([check('database', () => deps.repos.ping()), check('storage', () => deps.blobs.ping())]),
      );
      const ok = Object.values(checks).every(Boolean);
      return c.json({ ok, checks }, ok ? 200 : 503);
    });

export const systemRoutes = (version: VersionDto) => new Hono<AppEnv>().get('/version', (c) => c.json(version));

/** `/v1/openapi.json`, built on first request and kept. */
export const openApiRoute = (version: VersionDto) => {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return new Hono<AppEnv>().get('/openapi.json', (c) => {
    document ??= buildOpenApiDocument(version);
    return c.json(document);
  });
};
