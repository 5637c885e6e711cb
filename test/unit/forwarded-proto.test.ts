import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forwardedProto } from '../../worker/src/http/client-address.js';

const PROXY = '10.0.0.1';
const trusted = ['10.0.0.0/8'];
const protoOf = (headers: Record<string, string>, peer = PROXY) => forwardedProto(peer, new Headers(headers), trusted);

describe('forwardedProto: the scheme a trusted proxy reports', () => {
  it('believes only a trusted peer, and only http or https', () => {
    expect(protoOf({ 'x-forwarded-proto': 'https' })).toBe('https');
    expect(protoOf({ 'x-forwarded-proto': 'HTTPS' })).toBe('https');
    expect(protoOf({ 'x-forwarded-proto': 'https' }, '203.0.113.1')).toBeUndefined();
    expect(forwardedProto(undefined, new Headers({ 'x-forwarded-proto': 'https' }), trusted)).toBeUndefined();
    expect(protoOf({ 'x-forwarded-proto': 'ftp' })).toBeUndefined();
    expect(protoOf({})).toBeUndefined();
  });

  it('takes the nearest proxy’s value: the last X-Forwarded-Proto entry, else proto= of the last Forwarded element', () => {
    expect(protoOf({ 'x-forwarded-proto': 'https, http' })).toBe('http');
    expect(protoOf({ forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43' })).toBe('http');
    expect(protoOf({ forwarded: 'for=192.0.2.43, for="[2001:db8:cafe::17]";Proto="https"' })).toBe('https');
    expect(protoOf({ forwarded: 'proto=https, for=10.0.0.2' })).toBeUndefined();
    expect(protoOf({ forwarded: 'proto=https', 'x-forwarded-proto': 'http' })).toBe('http');
  });

  it('never throws, and answers http, https or nothing, whatever the headers hold', () => {
    const text = fc.string({ unit: fc.constantFrom('proto', '=', ';', ',', '"', ' ', 'https', 'http', 'for', 'x') });
    fc.assert(
      fc.property(fc.option(text), fc.option(text), (xfp, fwd) => {
        const headers: Record<string, string> = {};
        if (xfp !== null) headers['x-forwarded-proto'] = xfp;
        if (fwd !== null) headers.forwarded = fwd;
        expect([undefined, 'http', 'https']).toContain(protoOf(headers));
      }),
      { numRuns: 3000 },
    );
  });
});
