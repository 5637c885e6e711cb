import { describe, expect, it } from 'vitest';
import { decide, type Permission, POLICY, SCOPE_GRANTS } from '../../worker/src/features/accounts/policy.js';
import { createActivityService } from '../../worker/src/features/activity/activity.service.js';
import { csvField, csvRow } from '../../worker/src/features/activity/export-format.js';
import { escapeControls, sanitizeDetails } from '../../worker/src/features/activity/sanitize.js';
import type { ApiKey } from '../../worker/src/features/api-keys/api-keys.port.js';
import { displayAddressOf } from '../../worker/src/http/client-address.js';
import type { ActivityLogStore } from '../../worker/src/ports/activity-log.js';

describe('activity values', () => {
  it('escapes control characters, newlines and line separators as visible text', () => {
    expect(escapeControls('a\nb\r\u0000\u001b[31m\u007f\u0085\u2028z')).toBe(
      'a\\u000ab\\u000d\\u0000\\u001b[31m\\u007f\\u0085\\u2028z',
    );
    expect(escapeControls('emoji 👩‍💻 fine')).toBe('emoji 👩‍💻 fine');
    expect(escapeControls('x'.repeat(5000))).toHaveLength(1001);
  });

  it('cleans details deeply, never reaching a prototype', () => {
    const hostile = JSON.parse(
      '{"__proto__": {"polluted": true}, "a\\nb": ["x\\ty", 1, null, {"deep": {"deeper": {"deepest": {"gone": 1}}}}], "n": 1e999}',
    );
    const clean = sanitizeDetails(hostile)!;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(clean['a\\u000ab']).toEqual(['x\\u0009y', 1, null, { deep: { deeper: '…' } }]);
    expect(clean.n).toBeNull();
    expect(sanitizeDetails({})).toBeNull();
  });

  it('writes CSV fields quoted per RFC 4180 and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+2')).toBe("'=1+2");
    expect(csvField('+cmd')).toBe("'+cmd");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
    const row = csvRow({
      id: 'i',
      at: 't',
      actorType: 'system',
      actorId: null,
      action: 'a.b',
      subjectType: null,
      subjectId: null,
      ip: null,
      details: { k: 'v' },
    });
    expect(row).toBe('i,t,system,,a.b,,,,"{""k"":""v""}"\r\n');
  });

  it('shows addresses as written, IPv4-mapped IPv6 as IPv4, and nothing that is no address', () => {
    expect(displayAddressOf('203.0.113.9')).toBe('203.0.113.9');
    expect(displayAddressOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(displayAddressOf('[2001:DB8::1]')).toBe('2001:db8::1');
    expect(displayAddressOf('not an ip')).toBeNull();
    expect(displayAddressOf(undefined)).toBeNull();
  });
});

describe('activity service', () => {
  it('never fails the caller: a store that throws is logged, the promise resolves', async () => {
    const errors: string[] = [];
    const broken = { append: () => Promise.reject(new Error('disk full')), maxBytes: 1 } as unknown as ActivityLogStore;
    const service = createActivityService({
      activityLog: broken,
      clock: { now: () => new Date() },
      ids: { newId: () => '0193a000-0000-7000-8000-000000000001' },
      logError: (message) => errors.push(message),
    });
    await expect(
      service.record({ actor: { type: 'anonymous' }, action: 'auth.login.failed' }),
    ).resolves.toBeUndefined();
    expect(errors).toEqual(['activity entry auth.login.failed not written']);
  });
});

describe('API key scopes', () => {
  const key = (scopes: ApiKey['scopes']) => ({
    type: 'apiKey' as const,
    key: {
      id: 'k',
      name: 'k',
      prefix: 'cms_0',
      scopes,
      createdBy: null,
      createdAt: new Date(),
      lastUsedAt: null,
      expiresAt: null,
    },
  });
  const allowed = (scopes: ApiKey['scopes']) =>
    (Object.keys(POLICY) as Permission[]).filter((p) => decide(key(scopes), p) === 'allow').sort();

  it('grant exactly what the scope table says, and never an owner-only or account permission', () => {
    expect(allowed([])).toEqual([]);
    expect(allowed(['content:read'])).toEqual(['content.readOffline']);
    expect(allowed(['content:write'])).toEqual(['authors.write', 'content.write', 'sites.write', 'tags.write']);
    expect(allowed(['media:write'])).toEqual(['media.manage', 'media.read', 'media.upload']);
    const everything = allowed(['content:read', 'content:write', 'media:write']);
    for (const [permission, needs] of Object.entries(POLICY)) {
      if (needs === 'owner' || permission === 'account.self') expect(everything).not.toContain(permission);
    }
    expect(new Set(Object.values(SCOPE_GRANTS).flat())).toEqual(new Set(everything));
  });
});
