import { describe, expect, it } from 'vitest';
import type { Redirect, RedirectsRepository } from '../../worker/src/features/redirects/redirects.port.js';
import { createRedirectsService } from '../../worker/src/features/redirects/redirects.service.js';
import type { Repositories } from '../../worker/src/ports/repositories.js';

const ID = '0190a000-0000-7000-8000-000000000001';
const T0 = new Date('2026-11-28T09:00:00.000Z');

/**
 * The service's change of a redirect against another change landing between
 * its read and its write. The store is a map with the port's guard (a write
 * made on a read `from`/`to` only while they still hold), which every
 * database adapter proves in the repository contract; `between` runs right
 * after each of the service's reads (told which), as another request's
 * write would.
 */
function serviceWith(start: Redirect | null, between: (rows: Map<string, Redirect>, read: number) => void) {
  const rows = new Map<string, Redirect>(start ? [[start.id, start]] : []);
  let reads = 0;
  const redirects: Pick<RedirectsRepository, 'findById' | 'update'> = {
    async findById(id) {
      const row = rows.get(id) ?? null;
      between(rows, ++reads);
      return row && { ...row };
    },
    async update(id, patch, now, read) {
      const row = rows.get(id);
      if (!row || (read && (row.from !== read.from || row.to !== read.to))) return null;
      const next = { ...row, ...patch, updatedAt: now };
      rows.set(id, next);
      return { ...next };
    },
  };
  const service = createRedirectsService({
    repos: { redirects } as unknown as Repositories,
    clock: { now: () => new Date('2026-11-28T10:00:00.000Z') },
    ids: { newId: () => ID },
  });
  return { service, rows, reads: () => reads };
}

const redirect = (from: string, to: string): Redirect => ({
  id: ID,
  from,
  to,
  status: 301,
  createdAt: T0,
  updatedAt: T0,
});

describe('changing a redirect while another change lands', () => {
  it('checks again on what the other change left: a new from that the other made the target is a loop (400)', async () => {
    // This change moves `from` to /c; meanwhile another sends `to` to /c. Each alone is fine; both would loop.
    const { service, rows } = serviceWith(redirect('/a', '/b'), (r, read) => {
      if (read === 1) r.set(ID, { ...r.get(ID)!, to: '/c' });
    });
    await expect(service.update(ID, { from: '/c' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(rows.get(ID)).toMatchObject({ from: '/a', to: '/c' });
  });

  it('writes on the row as it now is when the other change keeps it leading elsewhere', async () => {
    const { service, rows, reads } = serviceWith(redirect('/a', '/b'), (r, read) => {
      if (read === 1) r.set(ID, { ...r.get(ID)!, to: '/d', status: 302 });
    });
    expect(await service.update(ID, { from: '/c' })).toMatchObject({ from: '/c', to: '/d', status: 302 });
    expect(rows.get(ID)).toMatchObject({ from: '/c', to: '/d' });
    expect(reads()).toBe(2);
  });

  it('is a 404 when the other change deleted it', async () => {
    const { service } = serviceWith(redirect('/a', '/b'), (r, read) => {
      if (read === 1) r.delete(ID);
    });
    await expect(service.update(ID, { to: '/e' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('gives up with a conflict, writing nothing, on a redirect that changes before every write', async () => {
    const { service, rows, reads } = serviceWith(redirect('/a', '/b'), (r, read) =>
      r.set(ID, { ...r.get(ID)!, to: `/moved-${read}` }),
    );
    await expect(service.update(ID, { from: '/f' })).rejects.toMatchObject({ code: 'conflict' });
    expect(rows.get(ID)).toMatchObject({ from: '/a', to: '/moved-3' });
    expect(reads()).toBe(3);
  });
});
