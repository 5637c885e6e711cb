import { runAccountsApiContract } from '../../worker/src/features/accounts/accounts-api.contract.js';
import { runAuthApiContract } from '../../worker/src/features/accounts/auth-api.contract.js';
import { runRateLimitsApiContract } from '../../worker/src/features/accounts/rate-limits-api.contract.js';
import { runUsersApiContract } from '../../worker/src/features/accounts/users-api.contract.js';
import { runActivityApiContract } from '../../worker/src/features/activity/activity-api.contract.js';
import { runApiKeysApiContract } from '../../worker/src/features/api-keys/api-keys-api.contract.js';
import { runArticlesApiContract } from '../../worker/src/features/articles/articles-api.contract.js';
import { runSeoApiContract } from '../../worker/src/features/articles/seo-api.contract.js';
import { runImagesApiContract } from '../../worker/src/features/media/images-api.contract.js';
import { runMediaApiContract } from '../../worker/src/features/media/media-api.contract.js';
import { runPurgeApiContract } from '../../worker/src/features/purge/purge-api.contract.js';
import { runContentApiContract } from '../../worker/src/features/sites/sites-api.contract.js';
import { runSyndicationApiContract } from '../../worker/src/features/syndication/syndication-api.contract.js';
import { runSystemApiContract } from '../../worker/src/features/system/system-api.contract.js';
import type { ApiHarness } from '../support/api-harness.js';
import { runDecodeApiContract } from './api-decode.contract.js';
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
