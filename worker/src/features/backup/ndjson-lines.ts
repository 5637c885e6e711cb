import { DomainError } from '../../core/domain/errors.js';

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into UTF-8 lines, none longer than `maxLineBytes`:
 * a longer line is refused (413) as soon as it passes the bound, so memory
 * stays within one line whatever the stream holds. Hand-written because it
 * is twenty lines over a web stream on both runtimes (Node's readline needs
 * Node streams); test/unit/ndjson-lines.property.test.ts fuzzes it.
 * Yields [line number (1-based), text]; an empty last line is not yielded.
 */
export async function* ndjsonLines(
  stream: ReadableStream<Uint8Array>,
  maxLineBytes: number,
): AsyncGenerator<[number, string]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = stream.getReader();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let line = 0;
  const take = (tail: Uint8Array): string => {
    const parts = [...pending, tail];
    pending = [];
    pendingBytes = 0;
    const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      joined.set(p, at);
      at += p.length;
    }
    try {
      return decoder.decode(joined);
    } catch {
      throw new DomainError('invalid_request', `Archive line ${line}: not UTF-8`);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let start = 0;
      for (let i = value.indexOf(NEWLINE); i !== -1; i = value.indexOf(NEWLINE, start)) {
        if (pendingBytes + (i - start) > maxLineBytes) throw tooLong(line + 1, maxLineBytes);
        line += 1;
        yield [line, take(value.subarray(start, i))];
        start = i + 1;
      }
      const rest = value.subarray(start);
      if (rest.length > 0) {
        pendingBytes += rest.length;
        if (pendingBytes > maxLineBytes) throw tooLong(line + 1, maxLineBytes);
        pending.push(rest.slice());
      }
    }
    if (pendingBytes > 0) {
      line += 1;
      yield [line, take(new Uint8Array(0))];
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const tooLong = (line: number, max: number) =>
  new DomainError('payload_too_large', `Archive line ${line} is longer than ${max} bytes`);
