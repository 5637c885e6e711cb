import * as z from 'zod';
import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import type { TableRules } from '../../ports/table-export.js';
import { IdSchema, Sha256HexSchema } from '../../wire/common.schema.js';
import { redirectKey } from './redirect-key.js';
import { createRedirectsRepository } from './redirects.repository.js';
import { redirectsRoutes } from './redirects.routes.js';
import { normalizeSitePath, RedirectStatusSchema, RedirectTargetSchema, sitePathSchema } from './redirects.schema.js';
import { createRedirectsService, pointsToItself } from './redirects.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const redirectsServices = (deps: ServiceDeps) => ({ redirects: createRedirectsService(deps) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof redirectsServices> {}
}

/**
 * An imported redirect passes the API's own rules: its rows are addresses
 * frontends send readers to, so a `javascript:` target or a loop from an
 * archive is refused as a request would be. `fromHash` is checked for its
 * form only: the import makes it again from `from` (`remake`), since a
 * wrong one would let two rows share a `from` and hide one from lookups.
 */
const archiveRules: TableRules = {
  columns: {
    id: IdSchema,
    from: z
      .string()
      .refine((p) => normalizeSitePath(p) === p, 'a path without a trailing /, as redirects store it')
      .pipe(sitePathSchema('from')),
    to: RedirectTargetSchema,
    status: RedirectStatusSchema,
    fromHash: Sha256HexSchema,
  },
  unique: [['id'], ['from']],
  row: (r) => (pointsToItself(String(r.from), String(r.to)) ? 'to must lead somewhere other than from' : null),
};

/** Redirects: where the sites' old paths go now, asked for by their frontends. */
export const redirectsFeature = defineFeature({
  repositories: (kit) => ({ redirects: createRedirectsRepository(kit) }),
  // Editors' work, like tags: an installation moved elsewhere keeps its old links working.
  tables: {
    redirects: {
      export: true,
      rules: archiveRules,
      remake: async (row) => {
        row.fromHash = await redirectKey(String(row.from));
      },
    },
  },
  services: redirectsServices,
  routes: redirectsRoutes,
});
