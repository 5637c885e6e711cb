import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNdjsonFileActivityLog } from '../../worker/src/adapters/activity/ndjson-file.activity-log.js';
import { entryLine } from '../../worker/src/ports/activity-log.js';
import { runActivityLogContract, sampleEntry } from '../contract/activity-log.contract.js';
import { ascendingIds } from '../support/db-contract.js';

const dirs: string[] = [];
const tempFile = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cms-activity-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'activity.ndjson');
};
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

runActivityLogContract('NDJSON file (Node)', async (maxBytes) => ({
  store: createNdjsonFileActivityLog(await tempFile(), maxBytes),
  cleanup: async () => undefined,
}));

describe('NDJSON file activity log specifics', () => {
  it('is one JSON object per line, newlines and control characters escaped', async () => {
    const file = await tempFile();
    const store = createNdjsonFileActivityLog(file, 100_000);
    const entry = sampleEntry({ details: { title: 'line one\nline two\r\u0000\u001b[31m' } });
    await store.append(entry);
    const text = await readFile(file, 'utf8');
    expect(text).toBe(entryLine(entry));
    expect(text.split('\n')).toHaveLength(2);
    expect((await store.list({ limit: 1 }))[0]?.details).toEqual(entry.details);
  });

  it('survives a line cut short by a crash: the damaged line is skipped, later entries are whole', async () => {
    const file = await tempFile();
    const [a, b] = ascendingIds(2).map((id) => sampleEntry({ id }));
    const first = createNdjsonFileActivityLog(file, 100_000);
    await first.append(a!);
    await appendFile(file, entryLine(sampleEntry()).slice(0, 40)); // the crash
    const restarted = createNdjsonFileActivityLog(file, 100_000);
    await restarted.append(b!);
    expect((await restarted.list({ limit: 10 })).map((e) => e.id)).toEqual([b!.id, a!.id]);
    expect((await restarted.count({})).total).toBe(2);
  });

  it('reads a log much larger than its read chunk, newest page first and every line counted', async () => {
    const file = await tempFile();
    const entries = ascendingIds(3000).map((id, i) => sampleEntry({ id, details: { i } }));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, entries.map(entryLine).join(''));
    const store = createNdjsonFileActivityLog(file, 10_000_000);
    const page = await store.list({ limit: 5 });
    expect(page.map((e) => e.details)).toEqual([{ i: 2999 }, { i: 2998 }, { i: 2997 }, { i: 2996 }, { i: 2995 }]);
    expect((await store.count({})).total).toBe(3000);
  });
});
