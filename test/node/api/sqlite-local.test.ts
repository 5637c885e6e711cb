import { runApiContracts } from '../../contract/api.contract.js';
import { NODE_MAX_UPLOAD_BYTES, NODE_TEST_JWT_SECRET, nodeHarness } from '../../support/node-harness.js';

runApiContracts('Node, SQLite, local directory', () => nodeHarness({ db: 'sqlite', storage: 'local' }), {
  jwtSecret: NODE_TEST_JWT_SECRET,
  maxUploadBytes: NODE_MAX_UPLOAD_BYTES,
  target: 'node',
});
