import { createMemoryRateLimiter } from '../../worker/src/adapters/rate-limit/memory.rate-limiter.js';
import { runRateLimiterContract } from '../contract/rate-limiter.contract.js';

runRateLimiterContract('memory (Node with SQLite)', async () => ({
  limiter: createMemoryRateLimiter(),
  cleanup: async () => {},
}));
