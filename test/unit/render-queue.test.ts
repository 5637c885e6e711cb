import { describe, expect, it } from 'vitest';
import { createRenderQueue, type Pending } from '../../worker/src/adapters/image/render-queue.js';
import type { RenderJob } from '../../worker/src/ports/image-codec.js';

const JOB: RenderJob = { bytes: new Uint8Array(0), width: 1, height: 1, orientation: 1, format: 'png', quality: 80 };
const everyone = () => true;

function queue(max = 8) {
  let admitted = 0;
  const q = createRenderQueue({ max, retryAfterSeconds: 7, onAdmitted: () => admitted++ });
  const add = (group: string, signal?: AbortSignal) => {
    const result = q.admit(JOB, { group, signal });
    result.catch(() => undefined);
    return result;
  };
  return { q, add, admitted: () => admitted };
}

const groupOf = (p: Pending | undefined) => p?.ticket.group;

describe('the render queue', () => {
  it('takes groups in turns, the one served longest ago (or never) first', () => {
    const { q, add } = queue(16);
    for (let i = 0; i < 4; i++) void add('bomb');
    expect(groupOf(q.take(everyone))).toBe('bomb');
    void add('photo');
    void add('logo');
    expect([q.take(everyone), q.take(everyone), q.take(everyone)].map(groupOf)).toEqual(['photo', 'logo', 'bomb']);
    void add('photo');
    expect(groupOf(q.take(everyone))).toBe('photo'); // its last turn came before the bomb's
  });

  it('passes over a group that may not run now (its share of threads is busy)', () => {
    const { q, add } = queue();
    void add('bomb');
    void add('photo');
    expect(groupOf(q.take((g) => g !== 'bomb'))).toBe('photo');
    expect(q.take((g) => g !== 'bomb')).toBeUndefined();
    expect(q.size).toBe(1);
  });

  it('refuses with a 503 and Retry-After once full, or once one group holds a quarter of it', async () => {
    const { q, add, admitted } = queue(8);
    void add('bomb');
    void add('bomb');
    await expect(add('bomb')).rejects.toMatchObject({ code: 'unavailable', retryAfterSeconds: 7 });
    for (const g of ['a', 'b', 'c', 'd', 'e', 'f']) void add(g);
    await expect(add('g')).rejects.toMatchObject({ code: 'unavailable', retryAfterSeconds: 7 });
    expect([q.size, admitted()]).toEqual([8, 8]);
  });

  it('drops a waiting job whose signal aborts, and refuses one already aborted', async () => {
    const { q, add } = queue();
    const leaving = new AbortController();
    const gone = add('photo', leaving.signal);
    void add('logo');
    leaving.abort();
    await expect(gone).rejects.toMatchObject({ code: 'unavailable' });
    expect([q.size, q.dropped, groupOf(q.take(everyone))]).toEqual([1, 1, 'logo']);
    await expect(add('photo', leaving.signal)).rejects.toMatchObject({ code: 'unavailable' });
    expect(q.size).toBe(0);
  });

  it('leaves a taken job alone when its signal aborts afterwards', async () => {
    const { q, add } = queue();
    const leaving = new AbortController();
    const result = add('photo', leaving.signal);
    const taken = q.take(everyone)!;
    leaving.abort();
    taken.resolve(new Uint8Array([1]));
    expect(await result).toEqual(new Uint8Array([1]));
    expect(q.dropped).toBe(0);
  });
});
