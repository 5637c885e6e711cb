/// <reference types="vite/client" />
import type { SetupRepositories } from './db-contract.js';
import { suitesIn } from './suites.js';

type RepositorySuite = (name: string, setup: SetupRepositories) => void;

/**
 * Every repository contract suite, the one registry the Node runs (SQLite,
 * MariaDB, PostgreSQL) and the workerd run (D1) share: each feature's
 * `*-repository.contract.ts` in test/contract/features/<name>/ and the
 * platform's in test/contract/.
 */
export const REPOSITORY_SUITES = suitesIn<RepositorySuite>(
  import.meta.glob(['../contract/features/*/*-repository.contract.ts', '../contract/*-repository.contract.ts'], {
    eager: true,
  }),
  /^run\w+RepositoryContract$/,
);

export function runRepositoryContracts(name: string, setup: SetupRepositories): void {
  for (const [, suite] of REPOSITORY_SUITES) suite(name, setup);
}
