import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKeyOf, isTrustedProxy, resolveClient } from '../../worker/src/http/client-address.js';
import { inRange, parseIp, parseIpRange } from '../../worker/src/wire/ip-address.js';

/** The hand-written address parser reads request headers: fuzzed against what it must and must not accept. */

const groupsArb = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
const v4Arb = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 });

/** The spellings RFC 4291 allows for one IPv6 address: full, without leading zeros, `::` for a zero run, any case. */
function spellings(groups: number[]): string[] {
  const hex = groups.map((g) => g.toString(16));
  const out = [hex.join(':'), groups.map((g) => g.toString(16).padStart(4, '0')).join(':')];
  for (let start = 0; start < 8; start++) {
    for (let end = start + 1; end <= 8; end++) {
      if (groups.slice(start, end).every((g) => g === 0))
        out.push(`${hex.slice(0, start).join(':')}::${hex.slice(end).join(':')}`);
    }
  }
  return [...out, ...out.map((s) => s.toUpperCase()), ...out.map((s) => `[${s}]`)];
}

describe('IP address parsing (properties)', () => {
  it('never throws, and returns either nothing or eight 16-bit groups', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[0-9a-fA-F:.[\]%/]{0,60}$/)),
        (raw) => {
          const groups = parseIp(raw);
          if (groups !== null) {
            expect(groups).toHaveLength(8);
            for (const g of groups) expect(g >= 0 && g <= 0xffff && Number.isInteger(g)).toBe(true);
          }
          const range = parseIpRange(raw);
          if (range !== null) expect(range.bits >= 0 && range.bits <= 128).toBe(true);
          clientKeyOf(raw);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads every spelling of an IPv6 address as the same groups', () => {
    fc.assert(
      fc.property(groupsArb, (groups) => {
        for (const s of spellings(groups)) expect(parseIp(s), s).toEqual(groups);
      }),
    );
  });

  it('reads an IPv4 address and its IPv4-mapped forms as one client', () => {
    fc.assert(
      fc.property(v4Arb, ([a, b, c, d]) => {
        const dotted = `${a}.${b}.${c}.${d}`;
        const key = `v4:${dotted}`;
        expect(clientKeyOf(dotted)).toBe(key);
        expect(clientKeyOf(`::ffff:${dotted}`)).toBe(key);
        expect(clientKeyOf(`::FFFF:${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`)).toBe(key);
        // Leading zeros (octal in some parsers) and short forms are refused.
        expect(parseIp(`0${a}.${b}.${c}.${d}`)).toBeNull();
        expect(parseIp(`${a}.${b}.${(c! << 8) | d!}`)).toBeNull();
      }),
    );
  });

  it('puts an address inside every prefix of itself, and outside once a prefix bit flips', () => {
    fc.assert(
      fc.property(groupsArb, fc.integer({ min: 0, max: 128 }), (groups, bits) => {
        const range = { groups, bits };
        expect(inRange(groups, range)).toBe(true);
        for (const bit of [0, Math.floor(bits / 2), bits - 1, bits, 127]) {
          if (bit < 0 || bit > 127) continue;
          const flipped = [...groups];
          flipped[bit >> 4] = flipped[bit >> 4]! ^ (0x8000 >> (bit & 15));
          expect(inRange(flipped, range)).toBe(bit >= bits);
        }
      }),
    );
  });

  it('matches an IPv4 CIDR range the way the arithmetic says', () => {
    fc.assert(
      fc.property(v4Arb, v4Arb, fc.integer({ min: 0, max: 32 }), (net, ip, n) => {
        const toInt = (b: number[]) => ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
        const mask = n === 0 ? 0 : (0xffffffff << (32 - n)) >>> 0;
        const expected = (toInt(net) & mask) === (toInt(ip) & mask);
        expect(isTrustedProxy(ip.join('.'), [`${net.join('.')}/${n}`])).toBe(expected);
      }),
    );
  });
});

describe('client behind a trusted proxy (properties)', () => {
  it('is what the proxy appended, whatever the client put in front of it or in X-Real-IP', () => {
    fc.assert(
      fc.property(v4Arb, fc.string(), fc.string(), (client, forgedChain, forgedRealIp) => {
        const seen = client.join('.');
        // The client's own X-Forwarded-For, then the entry the proxy appended.
        const headers = new Headers();
        const clean = (s: string) => s.replace(/[\r\n\0]/g, '');
        if (clean(forgedChain).trim()) headers.set('x-forwarded-for', `${clean(forgedChain)}, ${seen}`);
        else headers.set('x-forwarded-for', seen);
        if (clean(forgedRealIp)) headers.set('x-real-ip', clean(forgedRealIp));
        const key = resolveClient('10.0.0.1', headers, ['10.0.0.0/8'], 'x-forwarded-for');
        // A client inside the proxies' own range is skipped as a hop; anything else is the client.
        if (!isTrustedProxy(seen, ['10.0.0.0/8'])) expect(key).toBe(`v4:${seen}`);
        else expect(key).not.toBeNull();
      }),
      { numRuns: 1000 },
    );
  });
});
