import { describe, expect, it } from 'vitest';
import { clientKeyOf, resolveClient } from '../../worker/src/http/client-address.js';

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

describe('resolveClient', () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it('uses the peer and ignores client-sent headers from an untrusted peer', () => {
    const h = headers({
      'x-real-ip': '9.9.9.9',
      'x-forwarded-for': '8.8.8.8',
      'cf-connecting-ip': '7.7.7.7',
      'true-client-ip': '6.6.6.6',
    });
    expect(resolveClient('1.2.3.4', h, [])).toBe('v4:1.2.3.4');
    expect(resolveClient('1.2.3.4', h, ['10.0.0.1'])).toBe('v4:1.2.3.4');
  });

  it('believes X-Real-IP from a trusted proxy, in any spelling of its address', () => {
    expect(resolveClient('10.0.0.1', headers({ 'x-real-ip': '9.9.9.9' }), ['10.0.0.1'])).toBe('v4:9.9.9.9');
    expect(resolveClient('::ffff:10.0.0.1', headers({ 'x-real-ip': '9.9.9.9' }), ['10.0.0.1'])).toBe('v4:9.9.9.9');
    expect(resolveClient('::1', headers({ 'x-real-ip': '2001:db8::5' }), ['0:0:0:0:0:0:0:1'])).toBe(
      'v6:2001:db8:0:0::/64',
    );
    // A duplicated header arrives comma-joined: the proxy's own value is the last one.
    expect(resolveClient('10.0.0.1', headers({ 'x-real-ip': '6.6.6.6, 9.9.9.9' }), ['10.0.0.1'])).toBe('v4:9.9.9.9');
  });

  it('falls back to the last untrusted X-Forwarded-For hop, then to the peer', () => {
    const trusted = ['10.0.0.1', '10.0.0.2'];
    expect(resolveClient('10.0.0.1', headers({ 'x-forwarded-for': '6.6.6.6, 9.9.9.9, 10.0.0.2' }), trusted)).toBe(
      'v4:9.9.9.9',
    );
    expect(resolveClient('10.0.0.1', headers({}), trusted)).toBe('v4:10.0.0.1');
    expect(resolveClient('10.0.0.1', headers({ 'x-real-ip': 'garbage' }), trusted)).toBe('v4:10.0.0.1');
  });

  it('has no key without a peer', () => {
    expect(resolveClient(undefined, headers({ 'x-real-ip': '9.9.9.9' }), ['10.0.0.1'])).toBeNull();
  });
});
