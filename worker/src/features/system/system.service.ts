import type { BlobStore } from '../../ports/blob-store.js';
import type { Repositories } from '../../ports/repositories.js';
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

export interface SystemDeps {
  repos: Pick<Repositories, 'ping'>;
  blobs: Pick<BlobStore, 'ping'>;
  version: VersionDto;
}

/** The running build, and whether what it depends on answers. */
export function createSystemService(deps: SystemDeps) {
  return {
    version: deps.version,

    /** Database and storage, each within 2 s. */
    async ready(): Promise<{ ok: boolean; checks: Record<string, boolean> }> {
      const checks = Object.fromEntries(
        await Promise.all([check('database', () => deps.repos.ping()), check('storage', () => deps.blobs.ping())]),
      );
      return { ok: Object.values(checks).every(Boolean), checks };
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
