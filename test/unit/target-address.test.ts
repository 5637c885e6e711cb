import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressRefusal, hostRefusal } from '../../worker/src/core/domain/target-address.js';
import { parseIp } from '../../worker/src/wire/ip-address.js';

/** The hand-written target policy reads user-given URLs: checked on known addresses and fuzzed on every spelling. */

const refusedOf = (host: string) => hostRefusal(new URL(`http://${host}/`).hostname);

describe('webhook target addresses', () => {
  it('refuses every special IPv4 range and allows public addresses', () => {
    for (const ip of [
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1',
      '100.100.100.200',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.168.0.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
    ]) {
      expect(addressRefusal(parseIp(ip)!), ip).not.toBeNull();
    }
    for (const ip of ['1.1.1.1', '8.8.8.8', '93.184.215.14', '172.32.0.1', '100.128.0.1', '11.0.0.1', '192.169.0.1']) {
      expect(addressRefusal(parseIp(ip)!), ip).toBeNull();
    }
  });

  it('refuses special IPv6 ranges and the forms that carry a private IPv4 address', () => {
    for (const ip of [
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b:1::1',
      '2002:a00:1::1',
      '2001:db8::1',
      '2001::1',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      '100::1',
      '::2',
      '1::1',
    ]) {
      expect(addressRefusal(parseIp(ip)!), ip).not.toBeNull();
    }
    for (const ip of ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(addressRefusal(parseIp(ip)!), ip).toBeNull();
    }
  });

  it('reads hosts as URLs give them: every IPv4 spelling, brackets, local names', () => {
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '[::1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      'localhost',
      'LOCALHOST.',
      'api.localhost',
      'printer.local',
      'metadata.google.internal',
      'router.home.arpa',
      'intranet',
    ]) {
      expect(refusedOf(host), host).not.toBeNull();
    }
    for (const host of [
      'hooks.example.com',
      'example.com.',
      '93.184.215.14',
      '[2606:4700:4700::1111]',
      'xn--bcher-kva.example',
    ]) {
      expect(refusedOf(host), host).toBeNull();
    }
  });

  it('refuses every private IPv4 address in any IPv6 spelling that carries it', () => {
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
    );
    fc.assert(
      fc.property(privateV4, ([a, b, c, d]) => {
        const hi = ((a << 8) | b).toString(16);
        const lo = ((c << 8) | d).toString(16);
        for (const host of [
          `${a}.${b}.${c}.${d}`,
          `[::ffff:${a}.${b}.${c}.${d}]`,
          `[::ffff:${hi}:${lo}]`,
          `[64:ff9b::${hi}:${lo}]`,
          `[2002:${hi}:${lo}::1]`,
          String(((a << 24) >>> 0) + (b << 16) + (c << 8) + d),
        ]) {
          expect(refusedOf(host), host).not.toBeNull();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, whatever the host', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[0-9a-fx.:[\]%]{0,60}$/)),
        (host) => {
          const why = hostRefusal(host);
          expect(why === null || typeof why === 'string').toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
