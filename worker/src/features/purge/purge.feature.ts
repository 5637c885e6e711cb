import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { SYSTEM } from '../../ports/write-effects.js';
import type { PurgeRun } from './purge.entities.js';
import { createPurgeRepository } from './purge.repository.js';
import { purgeRoutes } from './purge.routes.js';
import {
  createPurgeService,
  type PurgeDeps,
  purgeRunDetails,
  runScheduledPurge,
  toPurgeRunDto,
} from './purge.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const purgeServices = (deps: ServiceDeps) => ({ purge: createPurgeService(purgeDeps(deps)) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof purgeServices> {}
}

/** What a purge needs, the same for a request and for the scheduler. */
const purgeDeps = (deps: ServiceDeps): PurgeDeps => ({
  ...deps,
  dropVariants: (imageIds) => deps.services.variants.clearForQuietly(imageIds),
});

/** Duplicate and orphan purge: on request, and on a schedule the owner sets. */
export const purgeFeature = defineFeature({
  repositories: (kit) => ({ purge: createPurgeRepository(kit) }),
  services: purgeServices,
  routes: purgeRoutes,
  jobs: (services, deps) => {
    // A manual run is recorded by its route, which knows who asked; a scheduled one as the system's.
    const scheduled: PurgeDeps = {
      ...purgeDeps(deps),
      recordPurgeActivity: (run) =>
        services.activity.record({
          actor: SYSTEM,
          action: 'media.purge',
          subject: { type: 'purgeRun', id: run.id },
          details: purgeRunDetails(toPurgeRunDto(run)),
        }),
    };
    return [
      {
        name: 'purge',
        run: (now) => runScheduledPurge(scheduled, now),
        // Skipped: disabled, not due, or another instance holds the lease.
        summarize: (result) => {
          const run = result as PurgeRun | null;
          if (!run) return { ran: false };
          const { id, dryRun, status, removed, bytesFreed } = run;
          return {
            ran: true,
            id,
            dryRun,
            status,
            duplicates: removed.duplicates.length,
            orphanBlobs: removed.orphanBlobs.length,
            rowsWithoutBlob: removed.rowsWithoutBlob.length,
            bytesFreed,
          };
        },
      },
    ];
  },
});
