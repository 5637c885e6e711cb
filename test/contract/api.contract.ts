import type { ApiHarness } from '../support/api-harness.js';
import { runAccountsApiContract } from './api-accounts.contract.js';
import { runActivityApiContract } from './api-activity.contract.js';
import { runArticlesApiContract } from './api-articles.contract.js';
import { runAuthApiContract } from './api-auth.contract.js';
import { runContentApiContract } from './api-content.contract.js';
import { runDecodeApiContract } from './api-decode.contract.js';
import { runImagesApiContract } from './api-images.contract.js';
import { runApiKeysApiContract } from './api-keys.contract.js';
import { runMediaApiContract } from './api-media.contract.js';
import { runPurgeApiContract } from './api-purge.contract.js';
import { runRateLimitsApiContract } from './api-rate-limits.contract.js';
import { runSeoApiContract } from './api-seo.contract.js';
import { runSyndicationApiContract } from './api-syndication.contract.js';
import { runSystemApiContract } from './api-system.contract.js';
import { runUsersApiContract } from './api-users.contract.js';
import { runWriteAnswersApiContract } from './api-write-answers.contract.js';

export interface ApiTarget {
  jwtSecret: string;
  maxUploadBytes: number;
  target: 'node' | 'workers';
}

/** Every API suite against one target and backend; each `setup()` is a fresh database and store. */
export function runApiContracts(name: string, setup: () => Promise<ApiHarness>, t: ApiTarget) {
  runAuthApiContract(name, setup, t.jwtSecret);
  runAccountsApiContract(name, setup);
  runUsersApiContract(name, setup);
  runRateLimitsApiContract(name, setup);
  runArticlesApiContract(name, setup);
  runContentApiContract(name, setup);
  runImagesApiContract(name, setup, t.maxUploadBytes);
  runMediaApiContract(name, setup);
  runDecodeApiContract(name, setup);
  runPurgeApiContract(name, setup);
  runSystemApiContract(name, setup, t.target);
  runActivityApiContract(name, setup);
  runApiKeysApiContract(name, setup);
  runSeoApiContract(name, setup);
  runSyndicationApiContract(name, setup);
  runWriteAnswersApiContract(name, setup);
}
