/**
 * Every table, children before parents, so that deleting in this order never
 * trips a foreign key. The test harnesses empty databases with it; a new
 * table is added here once.
 */
export const TABLES_CHILD_FIRST = [
  'article_images',
  'images',
  'article_authors',
  'articles',
  'authors',
  'sites',
  'invitations',
  'users',
  'rate_limits',
  'purge_runs',
  'purge_settings',
  'leases',
  'api_keys',
  'activity_log',
  'activity_log_usage',
  'system_state',
] as const;
