import { describe, expect, it } from 'vitest';
import { sharedRuns } from '../../worker/src/core/shared/shared-runs.js';

/** A read whose runs the test settles by hand, recording the value each run started with. */
function controlledRead() {
  let value = 0;
  const runs: { startedWith: number; settle: () => void; fail: (err: Error) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const startedWith = value;
      runs.push({ startedWith, settle: () => resolve(startedWith), fail: reject });
    });
  return { read, runs, write: () => void value++ };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedRuns', () => {
  it('runs at once when nothing is under way', async () => {
    const r = controlledRead();
    const current = sharedRuns(r.read);
    const a = current();
    expect(r.runs).toHaveLength(1);
    r.runs[0]!.settle();
    expect(await a).toBe(0);
    const b = current();
    expect(r.runs).toHaveLength(2);
    r.runs[1]!.settle();
    expect(await b).toBe(0);
  });

  it('never answers a caller from a run that started before it asked', async () => {
    const r = controlledRead();
    const current = sharedRuns(r.read);
    const first = current(); // run 1 starts with 0
    r.write(); // a write commits while run 1 is under way
    const second = current(); // asked after the write: must not get run 1's value
    const third = current(); // shares the next run with the second
    expect(r.runs).toHaveLength(1);
    r.runs[0]!.settle();
    expect(await first).toBe(0);
    await turn();
    expect(r.runs).toHaveLength(2);
    expect(r.runs[1]!.startedWith).toBe(1);
    r.runs[1]!.settle();
    expect(await second).toBe(1);
    expect(await third).toBe(1);
  });

  it('starts the next run after a failed one, and fails only the callers that shared the failure', async () => {
    const r = controlledRead();
    const current = sharedRuns(r.read);
    const first = current();
    const second = current();
    r.runs[0]!.fail(new Error('gone'));
    await expect(first).rejects.toThrow('gone');
    await turn();
    expect(r.runs).toHaveLength(2);
    r.runs[1]!.fail(new Error('still gone'));
    await expect(second).rejects.toThrow('still gone');
    const third = current();
    expect(r.runs).toHaveLength(3);
    r.runs[2]!.settle();
    expect(await third).toBe(0);
  });
});
