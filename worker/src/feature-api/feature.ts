import type { SqlKit, Tables } from '../adapters/db/shared/sql-kit.js';
import type { Services } from '../http/env.js';
import type { RouteDef } from '../http/route.js';
import type { Repositories } from '../ports/repositories.js';
import type { TableExport, TableExports } from '../ports/table-export.js';
import type { AppDeps } from './deps.js';

/** What a feature's services are built from: the ports, and the services of the features listed before it. */
export interface ServiceDeps extends AppDeps {
  logError(message: string, err: unknown): void;
  /**
   * Every service, filled in registry order (app/features.ts): while being
   * built a feature may use those listed before it; inside its functions, any.
   */
  services: Services;
  /** Every route the app serves, for the API description. */
  routes: readonly RouteDef[];
}

/** Work the cron trigger (Workers) and the timer (Node) run, the same on both. */
export interface Job {
  name: string;
  run(now: Date): Promise<unknown>;
  /** What the tick's log line says of the result, when the result itself is too big or not plain (default: the result). */
  summarize?(result: unknown): unknown;
  /**
   * The part of the job that must not wait a whole tick (a webhook delivery
   * whose sender died): on Node it also runs every FREQUENT_JOBS_MS between
   * the ticks. Like `run`, safe to run on every instance at once.
   */
  frequent?(now: Date): Promise<unknown>;
}

/**
 * A feature: a resource's repositories, services, routes and scheduled jobs,
 * registered with one line in app/features.ts. Every part is optional.
 */
export interface Feature {
  /**
   * Its repositories, from the dialect's kit (one implementation for D1,
   * SQLite, MySQL and PostgreSQL); `tableExports` is every table's place in
   * an export archive, for the one repository that reads whole tables.
   */
  repositories?(kit: SqlKit, tableExports: TableExports): Partial<Repositories>;
  /**
   * The tables it adds to the schema, each in an export archive or not and
   * why (docs/backups.md); app/services.ts fails to compile while a table of
   * the schema is declared nowhere.
   */
  tables?: { readonly [K in keyof Tables]?: TableExport };
  /** Its services, built once per process (per isolate on Workers) from the ports. */
  services?(deps: ServiceDeps): Partial<Services>;
  /** Its routes, in the order they are matched. */
  routes?: readonly RouteDef[];
  /** Its scheduled jobs, built outside any request. */
  jobs?(services: Services, deps: ServiceDeps): Job[];
}

/** Keeps the feature's own types (what it builds) for the composition root's completeness check. */
export const defineFeature = <F extends Feature>(feature: F): F => feature;

export type { TableExport, TableExports };
