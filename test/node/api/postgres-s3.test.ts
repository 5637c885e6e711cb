import { runArticlesApiContract } from '../../contract/api-articles.contract.js';
import { runAuthApiContract } from '../../contract/api-auth.contract.js';
import { runImagesApiContract } from '../../contract/api-images.contract.js';
import { runSystemApiContract } from '../../contract/api-system.contract.js';
import { NODE_MAX_UPLOAD_BYTES, NODE_TEST_JWT_SECRET, nodeHarness } from '../../support/node-harness.js';

const name = 'Node, PostgreSQL, S3 (s3rver)';
const setup = () => nodeHarness({ db: 'postgres', storage: 's3' });

runAuthApiContract(name, setup, NODE_TEST_JWT_SECRET);
runArticlesApiContract(name, setup);
runImagesApiContract(name, setup, NODE_MAX_UPLOAD_BYTES);
runSystemApiContract(name, setup, 'node');
