import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledJobs } from '../../../../worker/src/app/services.js';
import { PURGE_LEASE, PURGE_LEASE_MS } from '../../../../worker/src/features/purge/purge.service.js';
import { errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

/**
 * One purge at a time, whoever starts it: a manual run while another purge
 * (manual or scheduled, on any instance) holds the lease is a 409 naming
 * that run, and the scheduler waits its turn (docs/api.md#media-library-variants-and-purge).
 */
export function runPurgeLeaseApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`one purge at a time (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    const purge = (json: Record<string, unknown> = {}) =>
      api.request('/v1/media/purge', { method: 'POST', token: owner, json });
    const runs = async () =>
      (await (await api.request('/v1/media/purge/runs', { token: owner })).json()).items as { id: string }[];

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'purge-lease-owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('answers 409 conflict naming the running purge, records nothing, and runs once the lease is free', async () => {
      const running = api.deps.ids.newId();
      const now = api.clock.now();
      const { leases } = api.deps.repos;
      expect(await leases.acquire(PURGE_LEASE, running, now, new Date(now.getTime() + PURGE_LEASE_MS))).toBe(true);
      const before = await runs();
      for (const body of [{}, { dryRun: true }]) {
        const refused = await purge(body);
        expect(refused.status).toBe(409);
        const error = await errorOf(refused);
        expect(error.code).toBe('conflict');
        expect(error.message).toContain(running);
      }
      expect(await runs()).toEqual(before);

      // The scheduler, due and enabled, skips while the lease is held.
      const put = await api.request('/v1/media/purge/settings', {
        method: 'PUT',
        token: owner,
        json: {
          enabled: true,
          intervalHours: 1,
          removeDuplicates: true,
          removeOrphans: true,
          orphanGraceHours: 24,
          dryRun: true,
        },
      });
      expect(put.status).toBe(200);
      expect((await scheduledJobs(api.deps)(api.clock.now())).purge).toBeNull();

      await leases.release(PURGE_LEASE, running);
      const ran = await purge({ dryRun: true });
      expect(ran.status).toBe(200);
      const { run } = await ran.json();
      expect(run).toMatchObject({ trigger: 'manual', status: 'succeeded', error: null });
      // The run gave the lease back.
      expect(await leases.holder(PURGE_LEASE, api.clock.now())).toBeNull();
      expect((await scheduledJobs(api.deps)(api.clock.now())).purge).toMatchObject({ trigger: 'scheduled' });
    });

    it('lets a crashed holder block purges only until its lease expires', async () => {
      const now = api.clock.now();
      const crashed = api.deps.ids.newId();
      await api.deps.repos.leases.acquire(PURGE_LEASE, crashed, now, new Date(now.getTime() + PURGE_LEASE_MS));
      expect((await purge({ dryRun: true })).status).toBe(409);
      api.clock.advance(PURGE_LEASE_MS);
      expect((await purge({ dryRun: true })).status).toBe(200);
    });
  });
}
