import { env } from 'cloudflare:test';
import { runArticlesApiContract } from '../contract/api-articles.contract.js';
import { runAuthApiContract } from '../contract/api-auth.contract.js';
import { runImagesApiContract } from '../contract/api-images.contract.js';
import { runSystemApiContract } from '../contract/api-system.contract.js';
import { WORKER_MAX_UPLOAD_BYTES, workerHarness } from './support/worker-harness.js';

// The whole API on the Workers runtime with D1 and R2.
runAuthApiContract('workerd, D1, R2', workerHarness, env.JWT_SECRET);
runArticlesApiContract('workerd, D1, R2', workerHarness);
runImagesApiContract('workerd, D1, R2', workerHarness, WORKER_MAX_UPLOAD_BYTES);
runSystemApiContract('workerd, D1, R2', workerHarness, 'workers');
