/// <reference types="vite/client" />
import type { ApiTarget, SetupApi } from '../support/api-harness.js';
import { suitesIn } from '../support/suites.js';

export type { ApiTarget };

type ApiSuite = (name: string, setup: SetupApi, target: ApiTarget) => void;

/** Every feature's API suite (`features/<name>/*-api.contract.ts` here), found by name. */
export const API_SUITES = suitesIn<ApiSuite>(
  import.meta.glob('./features/*/*-api.contract.ts', { eager: true }),
  /^run\w+ApiContract$/,
);

/** Every API suite against one target and backend; each `setup()` is a fresh database and store. */
export function runApiContracts(name: string, setup: SetupApi, t: ApiTarget) {
  for (const [, suite] of API_SUITES) suite(name, setup, t);
}
