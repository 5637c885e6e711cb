import { describe, expect, it } from 'vitest';
import { nextColorMode } from '../../admin-qwik/src/lib/color-mode.js';
import { formatBytes, formatDateTime } from '../../admin-qwik/src/lib/format.js';
import { isReadiness, isVersion } from '../../admin-qwik/src/lib/system.js';
import { actionError, describeLastApply } from '../../admin-qwik/src/lib/update.js';

describe('admin formatters', () => {
  it('formats bytes in binary units with one decimal', () => {
    expect([0, 1023, 1024, 1536, 1024 * 1024 - 1, 1024 * 1024, 10.25 * 1024 * 1024].map(formatBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '1.5 KiB',
      '1024.0 KiB',
      '1.0 MiB',
      '10.3 MiB',
    ]);
  });

  it('shows a timestamp in the locale, and a value that does not parse as it is', () => {
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDateTime('2026-03-01T12:00:00.000Z')).toMatch(/2026/);
  });

  it('cycles the colour mode system → light → dark → system', () => {
    expect([nextColorMode('system'), nextColorMode('light'), nextColorMode('dark')]).toEqual([
      'light',
      'dark',
      'system',
    ]);
  });
});

describe('admin update panel texts', () => {
  const refusal = (status: number | null, message: string, issues: { path: string; message: string }[] = []) =>
    ({ ok: false, status, code: 'x', message, issues }) as const;

  it('says an action is unavailable on 404 / 501 and otherwise adds the details the message lacks', () => {
    expect(actionError('apply', refusal(501, 'no supervisor'))).toBe(
      'Restart to apply is not available on this server: no supervisor',
    );
    expect(
      actionError(
        'download',
        refusal(409, 'signature invalid', [
          { path: 'sig', message: 'key not pinned' },
          { path: 'x', message: 'signature invalid' },
        ]),
      ),
    ).toBe('Download, verify and stage failed: signature invalid — key not pinned');
  });

  it('tells the outcome of the last apply or roll back', () => {
    const at = '2026-03-01T00:00:00.000Z';
    const common = { id: 'r1', actorId: null, at };
    expect(
      describeLastApply({
        operation: 'apply',
        version: '1.1.0',
        from: '1.0.0',
        outcome: 'applied',
        ...common,
        reason: null,
      }),
    ).toBe('Update from 1.0.0 to 1.1.0: done.');
    expect(
      describeLastApply({
        operation: 'apply',
        version: '1.1.0',
        from: '1.0.0',
        outcome: 'rolled_back',
        ...common,
        reason: 'readyz 503',
      }),
    ).toBe('Update from 1.0.0 to 1.1.0: not healthy, so 1.0.0 runs again (readyz 503).');
    expect(
      describeLastApply({
        operation: 'rollback',
        version: '1.0.0',
        from: '1.1.0',
        outcome: 'failed',
        ...common,
        reason: null,
      }),
    ).toBe('Roll back from 1.1.0 to 1.0.0: failed, nothing was switched.');
  });
});

describe('admin answer shapes', () => {
  it('accepts only a well-formed version and readiness body', () => {
    expect(isVersion({ version: '1.0.0', commit: 'abc', builtAt: '2026-01-01', target: 'node' })).toBe(true);
    expect(isVersion({ version: '1.0.0', commit: 'abc', builtAt: '2026-01-01', target: 'deno' })).toBe(false);
    expect(isVersion([])).toBe(false);
    expect(isReadiness({ ok: false, checks: { db: false, storage: true } })).toBe(true);
    expect(isReadiness({ ok: true, checks: { db: 'yes' } })).toBe(false);
  });
});
