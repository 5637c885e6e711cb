import { describe, expect, it } from 'vitest';
import { applyBlocked, rollbackBlocked, type UpdateStatus } from '../../admin-qwik/src/lib/update.js';

const BASE: UpdateStatus = {
  current: '1.0.0',
  latest: '1.1.0',
  available: true,
  staged: null,
  lastCheckedAt: null,
  notes: null,
  supervised: true,
  previous: null,
};

describe('admin update switches: disabled with the reason', () => {
  it('needs a supervisor for both', () => {
    const s = { ...BASE, supervised: false, staged: '1.1.0', previous: '0.9.0' };
    expect(applyBlocked(s)).toMatch(/not started by the supervisor/);
    expect(rollbackBlocked(s)).toBe(applyBlocked(s));
  });

  it('needs something staged to apply and a previous release to roll back to', () => {
    expect(applyBlocked(BASE)).toBe('Nothing is staged: download and verify a release first.');
    expect(rollbackBlocked(BASE)).toBe('There is no previous release to go back to.');
    expect(applyBlocked({ ...BASE, staged: '1.1.0' })).toBeNull();
    expect(rollbackBlocked({ ...BASE, previous: '0.9.0' })).toBeNull();
  });

  it('waits while a switch is under way, and trusts a server that does not say (a stand-in)', () => {
    const pending = { ...BASE, staged: '1.1.0', pending: { operation: 'apply', version: '1.1.0' } } as UpdateStatus;
    expect(applyBlocked(pending)).toBe('An apply to 1.1.0 is under way.');
    const bare = { ...BASE, staged: '1.1.0', supervised: undefined, previous: undefined };
    expect(applyBlocked(bare)).toBeNull();
    expect(rollbackBlocked(bare)).toBeNull();
  });
});
