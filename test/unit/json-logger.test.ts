import { describe, expect, it } from 'vitest';
import { asyncRequestScope, createJsonLogger } from '../../worker/src/adapters/runtime/json-logger.js';
import type { LogLevel } from '../../worker/src/ports/runtime.js';

function capture(level?: LogLevel) {
  const lines: { line: string; level: LogLevel }[] = [];
  const logger = createJsonLogger((line, lineLevel) => lines.push({ line, level: lineLevel }), { level });
  return { lines, logger, parsed: () => lines.map(({ line }) => JSON.parse(line)) };
}

describe('JSON logger', () => {
  it('writes one JSON object per line: level, time, message, then the fields', () => {
    const { lines, logger, parsed } = capture();
    logger.info('listening', { url: 'http://localhost:8787' });
    expect(lines).toHaveLength(1);
    expect(Object.keys(parsed()[0])).toEqual(['level', 'at', 'message', 'url']);
    expect(parsed()[0]).toMatchObject({ level: 'info', message: 'listening', url: 'http://localhost:8787' });
    expect(new Date(parsed()[0].at).toISOString()).toBe(parsed()[0].at);
    expect(lines[0]!.level).toBe('info');
  });

  it('writes nothing below LOG_LEVEL (default info)', () => {
    for (const [threshold, written] of [
      [undefined, ['info', 'warn', 'error']],
      ['debug', ['debug', 'info', 'warn', 'error']],
      ['warn', ['warn', 'error']],
      ['error', ['error']],
    ] as const) {
      const { logger, parsed } = capture(threshold);
      logger.debug('d');
      logger.info('i');
      logger.warn('w');
      logger.error('e');
      expect(
        parsed().map((r) => r.level),
        String(threshold),
      ).toEqual(written);
    }
  });

  it('puts an error’s message, name, stack and cause in fields, beside the caller’s own', () => {
    const { logger, parsed } = capture();
    logger.error('dependency unavailable', new Error('no route', { cause: new Error('10.0.0.5:5432') }), {
      job: 'purge',
    });
    expect(parsed()[0]).toMatchObject({
      level: 'error',
      message: 'dependency unavailable',
      job: 'purge',
      error: 'no route',
      name: 'Error',
      cause: '10.0.0.5:5432',
    });
    expect(parsed()[0].stack).toContain('no route');
  });

  it('names the request in every line written inside its scope, after awaits and in work started from it', async () => {
    const { logger, parsed } = capture();
    let deferred: Promise<void> = Promise.resolve();
    await asyncRequestScope.run({ requestId: 'req-1' }, async () => {
      logger.info('first');
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn('after an await');
      deferred = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => logger.info('deferred'));
    });
    logger.info('outside');
    await deferred;
    expect(parsed().map((r) => [r.message, r.requestId])).toEqual([
      ['first', 'req-1'],
      ['after an await', 'req-1'],
      ['outside', undefined],
      ['deferred', 'req-1'],
    ]);
  });

  it('escapes what a terminal would act on, and the line parses back to the same values', () => {
    const { lines, logger, parsed } = capture();
    const hostile = 'a\nb\r\u001b[2J\u0000\u007f\u0085\u202e\u2028\u2066\ufeff"\\ 👋 Grüße \ud800';
    logger.info(hostile, { value: hostile });
    expect(lines[0]!.line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u);
    expect(lines[0]!.line).toContain('👋 Grüße');
    expect(parsed()[0]).toMatchObject({ message: hostile, value: hostile });
  });
});
