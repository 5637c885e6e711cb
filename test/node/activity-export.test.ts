import { appendFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActivityEntry, entryLine } from '../../worker/src/ports/activity-log.js';
import { registerOwner } from '../support/api-flows.js';
import { ascendingIds } from '../support/db-contract.js';
import { type NodeHarness, nodeHarness } from '../support/node-harness.js';

const ENTRIES = 100_000;
const MB = 1024 * 1024;

// The heap is measured after a full collection: heapUsed alone also counts
// garbage not yet collected, which on a busy machine made the bound flaky.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const liveHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

/** An export of 100,000 entries is streamed, never held in memory whole. */
describe('activity export at scale (Node, NDJSON file)', () => {
  let api: NodeHarness;
  let owner: string;
  let fileBytes = 0;

  beforeAll(async () => {
    api = await nodeHarness({ db: 'sqlite', storage: 'local', settings: { ACTIVITY_LOG_MAX_BYTES: String(512 * MB) } });
    owner = (await registerOwner(api, 'export-owner@example.com')).token;
    // ~1 KB per entry: the whole export is about 100 MB.
    const pad = 'p'.repeat(800);
    const ids = ascendingIds(ENTRIES);
    const at = new Date('2026-11-20T00:00:00.000Z');
    for (let start = 0; start < ENTRIES; start += 10_000) {
      const lines = ids.slice(start, start + 10_000).map((id, i) => {
        const entry: ActivityEntry = {
          id,
          at,
          actorType: 'system',
          actorId: null,
          action: 'load.test',
          subjectType: 'n',
          subjectId: String(start + i),
          ip: null,
          details: { pad },
        };
        return entryLine(entry);
      });
      const chunk = lines.join('');
      fileBytes += Buffer.byteLength(chunk);
      await appendFile(api.deps.settings.activityLogFile, chunk);
    }
  }, 60_000);
  afterAll(async () => {
    await api?.cleanup();
  });

  it('streams every entry, in order, while the heap stays far below the export size', async () => {
    expect(fileBytes).toBeGreaterThan(90 * MB);
    const res = await api.request('/v1/activity/export?format=ndjson&action=load.test', { token: owner });
    expect(res.status).toBe(200);
    const baseline = liveHeap();
    let peak = baseline;
    let lines = 0;
    let bytes = 0;
    let carry = '';
    let nextSample = 10_000;
    let last = Infinity;
    let ordered = true;
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      const text = carry + decoder.decode(value, { stream: true });
      const parts = text.split('\n');
      carry = parts.pop()!;
      for (const line of parts) {
        const n = Number(JSON.parse(line).subjectId);
        if (n >= last) ordered = false;
        last = n;
        lines++;
      }
      if (lines >= nextSample) {
        peak = Math.max(peak, liveHeap());
        nextSample += 10_000;
      }
    }
    expect(lines).toBe(ENTRIES);
    expect(ordered).toBe(true);
    expect(last).toBe(0);
    expect(bytes).toBeGreaterThan(90 * MB);
    // Holding the export would need > 90 MB of strings; a page at a time needs a few.
    expect(nextSample).toBeGreaterThan(ENTRIES); // sampled all the way
    expect(peak - baseline).toBeLessThan(48 * MB);
  }, 120_000);

  it('pages the list through the same file without reading it all', async () => {
    const first = await (await api.request('/v1/activity?action=load.test&limit=2', { token: owner })).json();
    expect(first.items.map((e: { subjectId: string }) => e.subjectId)).toEqual([
      String(ENTRIES - 1),
      String(ENTRIES - 2),
    ]);
    const summary = await (await api.request('/v1/activity/summary?action=load.test', { token: owner })).json();
    expect(summary.total).toBe(ENTRIES);
    expect(summary.sizeBytes).toBeGreaterThan(fileBytes);
  }, 60_000);
});
