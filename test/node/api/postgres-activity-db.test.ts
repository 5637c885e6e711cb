import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runActivityApiContract } from '../../contract/features/activity/activity-api.contract.js';
import { runApiKeysApiContract } from '../../contract/features/api-keys/api-keys-api.contract.js';
import { registerOwner } from '../../support/api-flows.js';
import { nodeHarness } from '../../support/node-harness.js';

// ACTIVITY_LOG_STORE=database: several Node instances on one PostgreSQL
// database share one activity log (the same store Workers keep in D1).
const setup = () => nodeHarness({ db: 'postgres', storage: 'local', settings: { ACTIVITY_LOG_STORE: 'database' } });

runActivityApiContract('Node, PostgreSQL, activity log in the database', setup);
runApiKeysApiContract('Node, PostgreSQL, activity log in the database', setup);

describe('ACTIVITY_LOG_STORE=database', () => {
  it('writes the log to the database, not to the file', async () => {
    const api = await setup();
    try {
      const { token } = await registerOwner(api, 'db-log@example.com');
      const summary = await (await api.request('/v1/activity/summary', { token })).json();
      expect(summary.byAction.map((a: { action: string }) => a.action).sort()).toEqual([
        'user.register',
        'user.verify',
      ]);
      expect(existsSync(api.deps.settings.activityLogFile)).toBe(false);
    } finally {
      await api.cleanup();
    }
  });
});
