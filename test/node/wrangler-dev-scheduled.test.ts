import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev } from '../support/wrangler-dev.js';

/**
 * The cron trigger under the real `wrangler dev --test-scheduled`, as the
 * README tells a developer to fire it: GET /__scheduled (wrangler's
 * documented path, which reaches the Worker only because wrangler.toml's
 * run_worker_first names it) and /cdn-cgi/handler/scheduled. Each runs the
 * Worker's scheduled(), seen in its "scheduled jobs" log line.
 */
describe('wrangler dev --test-scheduled', () => {
  let dev: Awaited<ReturnType<typeof startWranglerDev>>;
  beforeAll(async () => {
    dev = await startWranglerDev({}, ['--test-scheduled']);
  }, 120_000);
  afterAll(async () => {
    await dev?.cleanup();
  });

  const runs = () =>
    dev
      .output()
      .split('\n')
      .filter((l) => l.includes('"message":"scheduled jobs"')).length;

  async function fires(path: string): Promise<void> {
    const before = runs();
    const res = await fetch(`${dev.url}${path}`);
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type'), path).toMatch(/^text\/plain/);
    // The jobs run inside the request; their log line reaches wrangler's output just after.
    while (runs() === before) await new Promise((r) => setTimeout(r, 50));
    const last =
      dev
        .output()
        .split('\n')
        .filter((l) => l.includes('"message":"scheduled jobs"'))
        .at(-1) ?? '';
    // Migrations were applied: every job ran without failing.
    expect(last).not.toContain('"failed":true');
  }

  it('runs the cron on GET /__scheduled', async () => {
    await fires('/__scheduled?cron=*+*+*+*+*');
  });

  it('runs the cron on GET /cdn-cgi/handler/scheduled', async () => {
    await fires('/cdn-cgi/handler/scheduled');
  });
});
