import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInlineHtmlRenderer } from '../../worker/src/adapters/content/inline.html-renderer.js';
import { type NodeDatabase, openNodeDatabase } from '../../worker/src/adapters/db/node-database.js';
import { createSqlActivityLogStore } from '../../worker/src/adapters/db/shared/activity-log.store.js';
import { uuidV7Ids } from '../../worker/src/adapters/runtime/system.runtime.js';
import { buildRepositories } from '../../worker/src/app/services.js';
import { renderArticleHtml } from '../../worker/src/core/content/render.js';
import { createActivityService } from '../../worker/src/features/activity/activity.service.js';
import type { ArticleEffectPorts } from '../../worker/src/features/articles/article-changes.js';
import { createArticlesService } from '../../worker/src/features/articles/articles.service.js';
import {
  createSchedulingService,
  SCHEDULER_LEASE_MS,
} from '../../worker/src/features/scheduling/scheduling.service.js';
import { secretSealer } from '../../worker/src/features/webhooks/webhook-crypto.js';
import { createWebhooksService } from '../../worker/src/features/webhooks/webhooks.service.js';
import { sampleArticle } from '../support/db-contract.js';
import { MIGRATIONS_ROOT, mysqlHarness, type NodeDbHarness, postgresHarness } from '../support/db-node-harness.js';
import { memoryBlobStore } from '../support/memory-blob-store.js';
import { sampleWebhook } from '../support/webhook-samples.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const ARTICLES = 25;

/**
 * One Node instance: its own connection pool, clock and scheduler, whose
 * lease never keeps it out (as when a run outlives its lease, or clocks
 * disagree), so that only the per-article conditional write stands between
 * the runs.
 */
function instance(db: NodeDatabase, now: Date) {
  const repos = {
    ...buildRepositories(db.kit),
    leases: { acquire: async () => true, release: async () => undefined, holder: async () => null },
  };
  const clock = { now: () => now };
  const fail = (m: string, e: unknown) => {
    throw Object.assign(new Error(m), { cause: e });
  };
  // The real activity log in the shared database, and the real outbox: both join the publication's transaction.
  const activity = createActivityService({
    activityLog: createSqlActivityLogStore(db.kit, 2 ** 24),
    clock,
    ids: uuidV7Ids,
    logError: fail,
  });
  const webhooks = createWebhooksService({
    repos,
    clock,
    ids: uuidV7Ids,
    transport: { vet: async () => null, post: async () => ({ ok: false, error: 'not in this test' }) },
    sealer: secretSealer('scheduler-instances-test-secret-0123456789'),
    allowPrivateTargets: true,
    logError: fail,
  });
  const effects: ArticleEffectPorts = {
    activity: (event) => activity.inWrite(event),
    webhook: (type, data, options) => webhooks.inWrite(type, data, options),
  };
  const articles = createArticlesService({
    repos,
    blobs: memoryBlobStore(),
    clock,
    ids: uuidV7Ids,
    logError: fail,
    dropVariants: async () => undefined,
    htmlRenderer: createInlineHtmlRenderer(renderArticleHtml),
    maxRenderBytes: 524_288,
    maxMarkdownBytes: 131_072,
    variantWidths: [320, 640],
    effects,
  });
  return createSchedulingService({
    repos,
    clock,
    ids: uuidV7Ids,
    readArticle: (id) => articles.read(id, { origin: '', widths: [] }),
    effects,
    logError: fail,
  });
}

describe.each([
  ['PostgreSQL', postgresHarness],
  ['MariaDB', mysqlHarness],
])('scheduled publication on Node instances sharing %s', (_name, makeHarness) => {
  let harness: NodeDbHarness;
  let one: NodeDatabase;
  let two: NodeDatabase;
  beforeAll(async () => {
    harness = await makeHarness();
    one = await openNodeDatabase(harness.url, { migrationsRoot: MIGRATIONS_ROOT });
    two = await openNodeDatabase(harness.url, { migrationsRoot: MIGRATIONS_ROOT });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await harness?.destroy();
  });

  it('publishes each due article, and records its article.published, exactly once when runs overlap without a lease', async () => {
    const repos = buildRepositories(one.kit);
    const hook = sampleWebhook({ events: ['article.published'] });
    await repos.webhooks.create(hook);
    const ids: string[] = [];
    for (let i = 0; i < ARTICLES; i++) {
      const article = sampleArticle({ title: `Due ${i}` });
      await repos.articles.create(article);
      await repos.scheduling.schedule(article.id, new Date(NOW.getTime() - (i + 1) * 1000), new Date(0));
      ids.push(article.id);
    }
    // Four runs at once on two instances, all working through the same due articles.
    const late = new Date(NOW.getTime() + SCHEDULER_LEASE_MS + 1000);
    const runs = await Promise.all([
      instance(one, NOW).publishDue(NOW),
      instance(two, late).publishDue(late),
      instance(one, late).publishDue(late),
      instance(two, NOW).publishDue(NOW),
    ]);
    expect(runs.every((r) => !r.skipped)).toBe(true);
    expect(runs.reduce((n, r) => n + r.published, 0)).toBe(ARTICLES);
    const log = createSqlActivityLogStore(one.kit, 2 ** 24);
    const entries = await log.list({ action: 'article.publish', limit: 1000 });
    expect(entries).toHaveLength(ARTICLES);
    expect(new Set(entries.map((e) => e.subjectId))).toEqual(new Set(ids));
    for (const id of ids) expect((await repos.articles.findById(id))?.status).toBe('online');
    const deliveries = await repos.webhooks.due(new Date(late.getTime() + 60_000), 1000);
    expect(deliveries).toHaveLength(ARTICLES);
    const bodies = await Promise.all(deliveries.map((d) => repos.webhooks.findEvent(d.eventId)));
    expect(new Set(bodies.map((e) => JSON.parse(e!.body).data.id))).toEqual(new Set(ids));
    // Nothing is due any more.
    expect((await instance(two, late).publishDue(late)).published).toBe(0);
  });
});
