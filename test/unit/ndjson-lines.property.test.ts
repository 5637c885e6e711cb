import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../worker/src/core/domain/errors.js';
import { ndjsonLines } from '../../worker/src/features/backup/ndjson-lines.js';

/** A stream of these chunks, as a network would cut them. */
const streamOf = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });

function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.slice(prev, c));
    prev = c;
  }
  return out;
}

async function collect(chunks: Uint8Array[], max: number): Promise<string[]> {
  const lines: string[] = [];
  for await (const [, text] of ndjsonLines(streamOf(chunks), max)) lines.push(text);
  return lines;
}

describe('ndjsonLines (the archive reader, fuzzed)', () => {
  it('yields exactly the lines, however the stream is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/\n/g, ' ')),
          { maxLength: 20 },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (lines, cuts) => {
          const text = lines.map((l) => `${l}\n`).join('');
          expect(await collect(cut(new TextEncoder().encode(text), cuts), 1000)).toEqual(lines);
        },
      ),
    );
  });

  it('refuses a line past the bound at once, whatever follows, and never buffers more than the bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 64 }), fc.array(fc.nat(), { maxLength: 8 }), async (max, cuts) => {
        const long = new Uint8Array(max + 1).fill(0x61);
        let pulled = 0;
        const chunks = cut(long, cuts);
        const endless = new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += 1;
            // After the long line's bytes, an endless supply: the reader must stop without it.
            controller.enqueue(chunks[pulled - 1] ?? new Uint8Array(1024).fill(0x62));
          },
        });
        const error = await (async () => {
          for await (const _ of ndjsonLines(endless, max));
        })().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).code).toBe('payload_too_large');
        expect(pulled).toBeLessThanOrEqual(chunks.length + 1);
      }),
    );
  });

  it('refuses bytes that are not UTF-8 with invalid_request', async () => {
    const error = await collect([Uint8Array.from([0x7b, 0xff, 0x7d, 0x0a])], 100).catch((e: unknown) => e);
    expect((error as DomainError).code).toBe('invalid_request');
  });

  it('yields a last line without a newline, and nothing for an empty stream', async () => {
    expect(await collect([new TextEncoder().encode('a\nb')], 10)).toEqual(['a', 'b']);
    expect(await collect([], 10)).toEqual([]);
  });
});
