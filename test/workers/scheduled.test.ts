import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createD1Kit } from '../../worker/src/adapters/db/sqlite/d1.js';
import { buildRepositories } from '../../worker/src/app/services.js';
import worker from '../../worker/src/entry.worker.js';
import { DEFAULT_PURGE_SETTINGS } from '../../worker/src/features/purge/purge.entities.js';
import { sampleArticle } from '../support/db-contract.js';
import { sampleWebhook } from '../support/webhook-samples.js';

const repos = buildRepositories(createD1Kit(env.DB));

/** Invokes the Worker's scheduled() as the cron trigger would, and waits for its waitUntil work. */
async function cron(at: Date): Promise<void> {
  const controller = createScheduledController({ scheduledTime: at, cron: '* * * * *' });
  const ctx = createExecutionContext();
  await worker.scheduled(controller, env as unknown as Parameters<typeof worker.scheduled>[1], ctx);
  await waitOnExecutionContext(ctx);
}

describe('Worker cron trigger', () => {
  beforeEach(async () => {
    await env.DB.batch(
      ['purge_runs', 'purge_settings', 'leases', 'webhook_events', 'articles'].map((t) =>
        env.DB.prepare(`DELETE FROM ${t}`),
      ),
    );
  });

  it('does nothing while the purge is disabled', async () => {
    await cron(new Date());
    expect(await repos.purge.listRuns({ limit: 5 })).toEqual([]);
  });

  it('writes one JSON line per tick saying what each job did (Workers Logs)', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'info').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      await cron(new Date());
      await repos.purge.saveSettings({ ...DEFAULT_PURGE_SETTINGS, enabled: true, dryRun: true }, new Date());
      await cron(new Date());
    } finally {
      spy.mockRestore();
    }
    const ticks = lines.map((l) => JSON.parse(l)).filter((r) => r.message === 'scheduled jobs');
    expect(ticks).toHaveLength(2);
    expect(ticks[0]).toMatchObject({
      level: 'info',
      purge: { ran: false },
      scheduler: { published: 0 },
      webhooks: { delivered: 0, retrying: 0, failed: 0 },
      durationMs: expect.any(Number),
    });
    expect(ticks[1].purge).toMatchObject({
      ran: true,
      dryRun: true,
      status: 'succeeded',
      duplicates: 0,
      bytesFreed: 0,
    });
  });

  it('records a scheduled run when enabled and due, honouring dry run, and not again before the interval', async () => {
    await repos.purge.saveSettings(
      { ...DEFAULT_PURGE_SETTINGS, enabled: true, dryRun: true, intervalHours: 1 },
      new Date(),
    );
    const now = Date.now();
    await cron(new Date(now));
    const runs = await repos.purge.listRuns({ limit: 5 });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'scheduled', dryRun: true, status: 'succeeded' });
    // The next tick, 15 minutes later, is not due yet.
    await cron(new Date(now + 15 * 60_000));
    expect(await repos.purge.listRuns({ limit: 5 })).toHaveLength(1);
    // The lease was given back.
    expect((await env.DB.prepare('SELECT count(*) AS n FROM leases').first<{ n: number }>())?.n).toBe(0);
  });

  it('publishes an article whose scheduled time has come, once, even when two invocations overlap', async () => {
    // An endpoint that wants it: the event and its delivery are written with the publication.
    await repos.webhooks.create(sampleWebhook({ events: ['article.published'] }));
    const due = sampleArticle({ title: 'Due' });
    const notYet = sampleArticle({ title: 'Not yet' });
    await repos.articles.create(due);
    await repos.articles.create(notYet);
    const now = Date.now();
    await repos.scheduling.schedule(due.id, new Date(now - 30_000), new Date(now - 60_000));
    await repos.scheduling.schedule(notYet.id, new Date(now + 3_600_000), new Date(now - 60_000));
    await Promise.all([cron(new Date(now)), cron(new Date(now))]);
    expect(await repos.articles.findById(due.id)).toMatchObject({ status: 'online', scheduledAt: null });
    expect(await repos.articles.findById(notYet.id)).toMatchObject({ status: 'offline' });
    const events = await env.DB.prepare(
      "SELECT count(*) AS n FROM webhook_events WHERE type = 'article.published'",
    ).first<{
      n: number;
    }>();
    expect(events?.n).toBe(1);
    const count = async (table: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n;
    expect(await count('webhook_deliveries')).toBe(1);
    expect(
      (
        await env.DB.prepare(
          "SELECT count(*) AS n FROM activity_log WHERE action = 'article.publish' AND actor_type = 'system'",
        ).first<{ n: number }>()
      )?.n,
    ).toBe(1);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM leases').first<{ n: number }>())?.n).toBe(0);
  });
});
