import { runArticlesApiContract } from '../../contract/api-articles.contract.js';
import { runAuthApiContract } from '../../contract/api-auth.contract.js';
import { runImagesApiContract } from '../../contract/api-images.contract.js';
import { runSystemApiContract } from '../../contract/api-system.contract.js';
import { NODE_MAX_UPLOAD_BYTES, NODE_TEST_JWT_SECRET, nodeHarness } from '../../support/node-harness.js';

const name = 'Node, MariaDB, local directory';
const setup = () => nodeHarness({ db: 'mysql', storage: 'local' });

runAuthApiContract(name, setup, NODE_TEST_JWT_SECRET);
runArticlesApiContract(name, setup);
runImagesApiContract(name, setup, NODE_MAX_UPLOAD_BYTES);
runSystemApiContract(name, setup, 'node');
