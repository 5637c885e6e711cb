import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isPatched,
  PATCHED_FILES,
  patchPostgresSource,
  unpatchPostgresSource,
} from '../../scripts/lib/postgres-patches.ts';

/**
 * The pinned postgres.js queue fix (docs/postgres-driver.md): installed, the
 * queue still behaves as a FIFO with remove(), and the pool's pattern (shift a
 * connection, remove it, push it back) no longer scans every slot ever used.
 */
const PG_DIR = path.resolve(import.meta.dirname, '../../node_modules/postgres');

interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => Queue<T>;

const esm: QueueFactory = (await import(pathToFileURL(path.join(PG_DIR, 'src/queue.js')).href)).default;
const cjs: QueueFactory = createRequire(import.meta.url)(path.join(PG_DIR, 'cjs/src/queue.js'));

describe('postgres.js queue patch', () => {
  it('is applied to every patched file in node_modules (both queue.js and connection.js copies)', () => {
    for (const rel of PATCHED_FILES) expect(isPatched(readFileSync(path.join(PG_DIR, rel), 'utf8')), rel).toBe(true);
  });

  it('is idempotent and refuses a file it was not written for', () => {
    const patched = readFileSync(path.join(PG_DIR, 'src/queue.js'), 'utf8');
    expect(patchPostgresSource(patched, 'src/queue.js')).toBe(patched);
    expect(patchPostgresSource(unpatchPostgresSource(patched, 'src/queue.js'), 'src/queue.js')).toBe(patched);
    expect(() => patchPostgresSource('export default function Queue() {}', 'src/queue.js')).toThrow(
      /not the 3\.4\.9 file/,
    );
    expect(() => patchPostgresSource('function nextWrite() {}', 'src/connection.js')).toThrow(/not the 3\.4\.9 file/);
  });

  for (const [name, Queue] of [
    ['ESM', esm],
    ['CommonJS', cjs],
  ] as const) {
    it(`${name}: behaves like an array used as a FIFO with remove()`, () => {
      type Op = { op: 'push' } | { op: 'shift' } | { op: 'remove'; pick: number };
      const op = fc.oneof(
        fc.constant<Op>({ op: 'push' }),
        fc.constant<Op>({ op: 'shift' }),
        fc.nat().map((pick): Op => ({ op: 'remove', pick })),
      );
      fc.assert(
        fc.property(fc.array(op, { maxLength: 600 }), (ops) => {
          const q = Queue<number>();
          const model: number[] = [];
          let next = 0;
          for (const o of ops) {
            if (o.op === 'push') model.push(q.push(next++));
            else if (o.op === 'shift') expect(q.shift()).toBe(model.shift());
            else {
              const x = model.length ? model[o.pick % model.length]! : -1;
              const at = model.indexOf(x);
              expect(q.remove(x)).toBe(at === -1 ? null : x);
              if (at !== -1) model.splice(at, 1);
            }
            expect(q.length).toBe(model.length);
          }
          while (model.length) expect(q.shift()).toBe(model.shift());
        }),
      );
    });

    it(`${name}: a queue that never empties keeps remove() to its live part`, () => {
      // An Array subclass: slice() keeps the class, so every array the queue
      // holds reports how many slots each indexOf() call had to look at.
      let widest = 0;
      class Watched<T> extends Array<T> {
        override indexOf(x: T, from = 0): number {
          widest = Math.max(widest, this.length - from);
          return super.indexOf(x, from);
        }
      }
      const connections = Array.from({ length: 10 }, (_, i) => ({ id: i }));
      const busy = Queue(Watched.from(connections));
      // The pool's busy queue under steady load: take the next connection,
      // move() removes it from the queue it thinks it is in, pushes it back.
      for (let i = 0; i < 20_000; i++) {
        const c = busy.shift()!;
        expect(busy.remove(c)).toBeNull();
        busy.push(c);
      }
      expect(busy.length).toBe(10);
      // 3.4.9 scanned every slot ever pushed: 20,000 here, and growing.
      expect(widest).toBeLessThan(200);
    });
  }
});
