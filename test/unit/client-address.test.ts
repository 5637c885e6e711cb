import { describe, expect, it } from 'vitest';
import { clientKeyOf, isTrustedProxy, resolveClient } from '../../worker/src/http/client-address.js';

describe('clientKeyOf', () => {
  it.each([
    ['1.2.3.4', 'v4:1.2.3.4'],
    [' 1.2.3.4 ', 'v4:1.2.3.4'],
    ['::ffff:1.2.3.4', 'v4:1.2.3.4'],
    ['::FFFF:0102:0304', 'v4:1.2.3.4'],
    ['2001:db8::1', 'v6:2001:db8:0:0::/64'],
    ['2001:DB8:0:0:FFFF::1', 'v6:2001:db8:0:0::/64'],
    ['[2001:db8::1]', 'v6:2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'v6:fe80:0:0:0::/64'],
    ['::1', 'v6:0:0:0:0::/64'],
  ])('%s → %s', (raw, key) => {
    expect(clientKeyOf(raw)).toBe(key);
  });

  it.each(['', 'localhost', '1.2.3', '256.1.1.1', '1:2:3:4:5:6:7:8:9', '2001:db8:::1', 'g::1', "1.2.3.4' OR 1=1"])(
    'refuses %j',
    (raw) => {
      expect(clientKeyOf(raw)).toBeNull();
    },
  );
});

describe('isTrustedProxy', () => {
  const trusted = ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1', '2001:db8:1::/48', '203.0.113.0/24'];
  it.each([
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['::ffff:10.1.2.3', true],
    ['::FFFF:0A01:0203', true],
    ['11.0.0.1', false],
    ['192.168.1.7', true],
    ['192.168.1.8', false],
    ['fd12:3456::1', true],
    ['fe80::1', false],
    ['0:0:0:0:0:0:0:1', true],
    ['[::1]', true],
    ['2001:db8:1:ffff::1', true],
    ['2001:db8:2::1', false],
    ['203.0.113.200', true],
    ['203.0.114.1', false],
    ['garbage', false],
    ['', false],
  ])('%s → %s', (address, expected) => {
    expect(isTrustedProxy(address, trusted)).toBe(expected);
  });

  it('matches ranges on their prefix only', () => {
    expect(isTrustedProxy('1.2.3.4', ['0.0.0.0/0'])).toBe(true);
    expect(isTrustedProxy('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
    expect(isTrustedProxy('2001:db8::1', ['::/0'])).toBe(true);
    expect(isTrustedProxy('10.0.0.200', ['10.0.0.128/25'])).toBe(true);
    expect(isTrustedProxy('10.0.0.127', ['10.0.0.128/25'])).toBe(false);
    // Host bits in the range are ignored, as in most tools.
    expect(isTrustedProxy('10.9.9.9', ['10.1.2.3/8'])).toBe(true);
    expect(isTrustedProxy('10.0.0.1', [])).toBe(false);
  });
});

describe('resolveClient', () => {
  const h = (init: Record<string, string> | [string, string][]) => new Headers(init);
  const PROXY = '10.0.0.1';

  // One rule: the peer, or, from a trusted proxy, what that proxy wrote.
  it.each<[string, string | undefined, Headers, string[], 'x-forwarded-for' | 'x-real-ip', string | null]>([
    // A direct client: its own headers change nothing.
    [
      'direct client, every forged header',
      '1.2.3.4',
      h({
        'x-real-ip': '9.9.9.9',
        'x-forwarded-for': '8.8.8.8',
        'cf-connecting-ip': '7.7.7.7',
        'true-client-ip': '6.6.6.6',
      }),
      [PROXY],
      'x-forwarded-for',
      'v4:1.2.3.4',
    ],
    ['no TRUST_PROXY at all', PROXY, h({ 'x-forwarded-for': '9.9.9.9' }), [], 'x-forwarded-for', 'v4:10.0.0.1'],
    // X-Forwarded-For (the default): the right-most entry that is not a trusted proxy.
    [
      'the entry the proxy appended',
      PROXY,
      h({ 'x-forwarded-for': '9.9.9.9' }),
      [PROXY],
      'x-forwarded-for',
      'v4:9.9.9.9',
    ],
    [
      'a client-sent X-Real-IP is not believed ahead of it',
      PROXY,
      h({ 'x-real-ip': '6.6.6.6', 'x-forwarded-for': '9.9.9.9' }),
      [PROXY],
      'x-forwarded-for',
      'v4:9.9.9.9',
    ],
    [
      'entries the client sent are left of the appended one',
      PROXY,
      h({ 'x-forwarded-for': '6.6.6.6, 7.7.7.7, 9.9.9.9' }),
      [PROXY],
      'x-forwarded-for',
      'v4:9.9.9.9',
    ],
    [
      'a chain of trusted proxies is skipped, by range too',
      PROXY,
      h({ 'x-forwarded-for': '6.6.6.6, 9.9.9.9, 10.0.0.2, 10.3.4.5' }),
      ['10.0.0.0/8'],
      'x-forwarded-for',
      'v4:9.9.9.9',
    ],
    [
      'duplicate headers arrive joined: the last proxy wrote the last entry',
      PROXY,
      h([
        ['x-forwarded-for', '6.6.6.6'],
        ['x-forwarded-for', '9.9.9.9'],
      ]),
      [PROXY],
      'x-forwarded-for',
      'v4:9.9.9.9',
    ],
    [
      'IPv6 through an IPv6 proxy range',
      'fd00::5',
      h({ 'x-forwarded-for': '2001:db8::7' }),
      ['fd00::/8'],
      'x-forwarded-for',
      'v6:2001:db8:0:0::/64',
    ],
    [
      'IPv4-mapped peer in an IPv4 range',
      '::ffff:10.0.0.9',
      h({ 'x-forwarded-for': '9.9.9.9' }),
      ['10.0.0.0/8'],
      'x-forwarded-for',
      'v4:9.9.9.9',
    ],
    [
      'every hop is ours: the farthest',
      PROXY,
      h({ 'x-forwarded-for': '10.0.0.7, 10.0.0.2' }),
      ['10.0.0.0/8'],
      'x-forwarded-for',
      'v4:10.0.0.7',
    ],
    ['no header: the proxy itself', PROXY, h({}), [PROXY], 'x-forwarded-for', 'v4:10.0.0.1'],
    [
      'garbage where the proxy wrote: the proxy itself',
      PROXY,
      h({ 'x-forwarded-for': '9.9.9.9, unknown' }),
      [PROXY],
      'x-forwarded-for',
      'v4:10.0.0.1',
    ],
    [
      'a port is not an address',
      PROXY,
      h({ 'x-forwarded-for': '9.9.9.9:5000' }),
      [PROXY],
      'x-forwarded-for',
      'v4:10.0.0.1',
    ],
    // X-Real-IP only when the setting says the proxy sets it.
    [
      'X-Real-IP when the proxy sets it',
      PROXY,
      h({ 'x-real-ip': '9.9.9.9', 'x-forwarded-for': '6.6.6.6' }),
      [PROXY],
      'x-real-ip',
      'v4:9.9.9.9',
    ],
    [
      'its last value when duplicated',
      PROXY,
      h({ 'x-real-ip': '6.6.6.6, 9.9.9.9' }),
      [PROXY],
      'x-real-ip',
      'v4:9.9.9.9',
    ],
    [
      'without it, not X-Forwarded-For but the proxy',
      PROXY,
      h({ 'x-forwarded-for': '6.6.6.6' }),
      [PROXY],
      'x-real-ip',
      'v4:10.0.0.1',
    ],
    ['garbage in it: the proxy', PROXY, h({ 'x-real-ip': 'garbage' }), [PROXY], 'x-real-ip', 'v4:10.0.0.1'],
    ['from a direct client, never', '1.2.3.4', h({ 'x-real-ip': '9.9.9.9' }), [PROXY], 'x-real-ip', 'v4:1.2.3.4'],
    ['no peer: no key', undefined, h({ 'x-real-ip': '9.9.9.9' }), [PROXY], 'x-real-ip', null],
  ])('%s', (_label, peer, headers, trusted, header, expected) => {
    expect(resolveClient(peer, headers, trusted, header)).toBe(expected);
  });

  it('gives ten rotated spoofed values one bucket behind a trusted proxy', () => {
    const keys = new Set(
      Array.from({ length: 10 }, (_, i) =>
        resolveClient(
          PROXY,
          h({ 'x-real-ip': `6.6.6.${i}`, 'x-forwarded-for': `7.7.7.${i}, 203.0.113.9` }),
          ['10.0.0.0/8'],
          'x-forwarded-for',
        ),
      ),
    );
    expect([...keys]).toEqual(['v4:203.0.113.9']);
  });
});
