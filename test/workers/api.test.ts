import { env } from 'cloudflare:test';
import { runApiContracts } from '../contract/api.contract.js';
import { remoteReceiver } from './support/remote-receiver.js';
import { WORKER_MAX_UPLOAD_BYTES, workerHarness } from './support/worker-harness.js';

// The whole API on the Workers runtime with D1 and R2.
runApiContracts('workerd, D1, R2', workerHarness, {
  jwtSecret: env.JWT_SECRET,
  maxUploadBytes: WORKER_MAX_UPLOAD_BYTES,
  target: 'workers',
  webhookReceiver: async () => remoteReceiver(),
});
