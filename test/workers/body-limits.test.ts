import { runBodyLimitsApiContract } from '../contract/api-body-limits.contract.js';
import { workerHarness } from './support/worker-harness.js';

runBodyLimitsApiContract('workerd, D1, R2', workerHarness);
