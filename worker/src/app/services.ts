import { createPlatformRepositories } from '../adapters/db/shared/repositories.js';
import type { SqlKit, Tables } from '../adapters/db/shared/sql-kit.js';
import type { AppDeps } from '../feature-api/deps.js';
import type { Job, ServiceDeps } from '../feature-api/feature.js';
import type { TableExports } from '../features/backup/backup.entities.js';
import { TABLE_EXPORT } from '../features/backup/backup-tables.repository.js';
import type { Services } from '../http/env.js';
import type { RouteDef } from '../http/route.js';
import type { Repositories } from '../ports/repositories.js';
import { FEATURES } from './features.js';

type Feature = (typeof FEATURES)[number];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Built<K extends 'repositories' | 'services'> = UnionToIntersection<
  Feature extends infer F ? (F extends { [P in K]: (...args: never[]) => infer R } ? R : never) : never
>;

/**
 * Compile-time proof that the registry builds every repository and service
 * the features declare (by declaration merging); a feature left out of
 * app/features.ts fails here, naming what is missing.
 */
type Missing<Declared, Provided> = Exclude<keyof Declared, keyof Provided>;
type FeatureTables = UnionToIntersection<Feature extends infer F ? (F extends { tables: infer T } ? T : never) : never>;
const complete: { repositories: never; services: never; tables: never } = {} as {
  repositories: Missing<Repositories, Built<'repositories'> & ReturnType<typeof createPlatformRepositories>>;
  services: Missing<Services, Built<'services'>>;
  tables: Missing<Tables, typeof TABLE_EXPORT & FeatureTables>;
};
void complete;

/**
 * Every table's place in an export archive: the backup feature's list, then
 * what each feature declares of its own tables, in registry order (parents
 * before children, test/unit/backup-tables.test.ts checks).
 */
export const TABLE_EXPORTS: TableExports = Object.assign(
  {},
  TABLE_EXPORT,
  ...FEATURES.map((f): TableExports => ('tables' in f ? (f.tables as TableExports) : {})),
);

/** Every route, in the order the features are listed. */
export const ROUTES: readonly RouteDef[] = FEATURES.flatMap((f: { routes?: readonly RouteDef[] }) => f.routes ?? []);

/** The one implementation of the persistence ports, for any dialect's kit: the platform's and every feature's. */
export function buildRepositories(kit: SqlKit): Repositories {
  const repos = createPlatformRepositories(kit);
  for (const feature of FEATURES)
    if ('repositories' in feature) Object.assign(repos, feature.repositories(kit, TABLE_EXPORTS));
  return repos as Repositories;
}

function serviceDeps(deps: AppDeps): ServiceDeps {
  return {
    ...deps,
    logError: (message, err) => deps.logger.error(message, err),
    services: {} as Services,
    routes: ROUTES,
  };
}

function servicesFor(built: ServiceDeps): Services {
  for (const feature of FEATURES) if ('services' in feature) Object.assign(built.services, feature.services(built));
  return built.services;
}

/** The core services, built once from the ports. */
export function buildServices(deps: AppDeps): Services {
  return servicesFor(serviceDeps(deps));
}

/** Every feature's jobs, over services built for them outside any request. */
function featureJobs(deps: AppDeps): Job[] {
  const built = serviceDeps(deps);
  const services = servicesFor(built);
  return FEATURES.flatMap((f): Job[] => ('jobs' in f ? f.jobs(services, built) : []));
}

/**
 * What the Worker's cron handler and the Node timer both call
 * (docs/architecture.md#rule-6): every
 * feature's jobs, over services built outside any request. One job failing
 * does not stop the others; each failure is logged. Resolves to what each
 * job returned, by name.
 */
export function scheduledJobs(deps: AppDeps): (now: Date) => Promise<Record<string, unknown>> {
  const jobs = featureJobs(deps);
  // The platform's own: a purge of the edge cache that failed after a write is sent again.
  const edge = deps.edgeCache;
  if (edge) jobs.push({ name: 'edgeCachePurge', run: () => edge.retry() });
  return async (now) => {
    const started = Date.now();
    const results: Record<string, unknown> = {};
    const summary: Record<string, unknown> = {};
    for (const job of jobs) {
      try {
        const result = await job.run(now);
        results[job.name] = result;
        summary[job.name] = job.summarize ? job.summarize(result) : result;
      } catch (err) {
        summary[job.name] = { failed: true };
        deps.logger.error(`scheduled ${job.name} failed`, err);
      }
    }
    // One line per tick, whatever it did: an operator sees the scheduler is alive.
    deps.logger.info('scheduled jobs', {
      scheduledAt: now.toISOString(),
      durationMs: Date.now() - started,
      ...summary,
    });
    return results;
  };
}

/** How often Node runs the jobs' `frequent` parts between ticks. */
export const FREQUENT_JOBS_MS = 5000;

/**
 * The jobs' `frequent` parts (Node runs them every FREQUENT_JOBS_MS; the
 * Worker's cron runs the whole jobs, which include them). Quiet: a line only
 * at debug level, and each failure logged.
 */
export function frequentJobs(deps: AppDeps): (now: Date) => Promise<Record<string, unknown>> {
  const jobs = featureJobs(deps);
  return async (now) => {
    const results: Record<string, unknown> = {};
    for (const job of jobs) {
      if (!job.frequent) continue;
      try {
        results[job.name] = await job.frequent(now);
      } catch (err) {
        deps.logger.error(`frequent ${job.name} failed`, err);
      }
    }
    deps.logger.debug('frequent jobs', { scheduledAt: now.toISOString(), ...results });
    return results;
  };
}
