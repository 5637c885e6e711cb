import { env } from 'cloudflare:test';
import { createDurableObjectRateLimiter } from '../../worker/src/adapters/rate-limit/durable-object.rate-limiter.js';
import { runRateLimiterContract } from '../contract/rate-limiter.contract.js';

// One Durable Object per client and budget, in workerd; the contract's keys are unique per test.
runRateLimiterContract('Durable Object (Workers)', async () => ({
  limiter: createDurableObjectRateLimiter(env.RATE_LIMITER),
  cleanup: async () => {},
}));
