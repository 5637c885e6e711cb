import { accountsFeature } from '../features/accounts/accounts.feature.js';
import { activityFeature } from '../features/activity/activity.feature.js';
import { apiKeysFeature } from '../features/api-keys/api-keys.feature.js';
import { articlesFeature } from '../features/articles/articles.feature.js';
import { authorsFeature } from '../features/authors/authors.feature.js';
import { backupFeature } from '../features/backup/backup.feature.js';
import { glossaryFeature } from '../features/glossary/glossary.feature.js';
import { mediaFeature } from '../features/media/media.feature.js';
import { previewsFeature } from '../features/previews/previews.feature.js';
import { purgeFeature } from '../features/purge/purge.feature.js';
import { redirectsFeature } from '../features/redirects/redirects.feature.js';
import { schedulingFeature } from '../features/scheduling/scheduling.feature.js';
import { sitesFeature } from '../features/sites/sites.feature.js';
import { syndicationFeature } from '../features/syndication/syndication.feature.js';
import { systemFeature } from '../features/system/system.feature.js';
import { tagsFeature } from '../features/tags/tags.feature.js';
import { webhooksFeature } from '../features/webhooks/webhooks.feature.js';

/**
 * Every feature the app serves: one line each. Their services are built in
 * this order (a service may use, while being built, those listed before
 * it), and their routes are matched in this order.
 */
export const FEATURES = [
  systemFeature,
  activityFeature,
  accountsFeature,
  apiKeysFeature,
  articlesFeature,
  syndicationFeature,
  sitesFeature,
  authorsFeature,
  tagsFeature,
  redirectsFeature,
  glossaryFeature,
  purgeFeature,
  mediaFeature,
  previewsFeature,
  // Before webhooks: a tick's scheduled publications are delivered by the same tick's webhooks job.
  schedulingFeature,
  webhooksFeature,
  backupFeature,
] as const;
