import { type IpRange, inRange, isIpv4, parseIp, parseIpRange } from '../wire/ip-address.js';

/**
 * Who the client is: its real network address, and the rate-limit key made
 * of it, with every spelling of one address folded together and IPv6
 * bucketed by /64 (one customer usually holds a whole /64, so per-address
 * budgets would be worthless there).
 */

/** Which header a trusted proxy writes the client's address into (TRUST_PROXY_HEADER). */
export type ProxyHeader = 'x-forwarded-for' | 'x-real-ip';

/** `v4:1.2.3.4`, `v6:2001:db8:0:1::/64`, or null for something that is no IP address. */
export function clientKeyOf(raw: string | undefined | null): string | null {
  const groups = parseIp(raw);
  if (!groups) return null;
  // IPv4-mapped (::ffff:a.b.c.d) is the IPv4 client itself.
  if (isIpv4(groups)) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return `v4:${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `v6:${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** An address as logs show it: trimmed, without brackets or zone, IPv4-mapped IPv6 as IPv4; null for no IP address. */
export function displayAddressOf(raw: string | undefined | null): string | null {
  const key = clientKeyOf(raw);
  if (!key) return null;
  if (key.startsWith('v4:')) return key.slice(3);
  return raw!
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
}

// TRUST_PROXY is parsed once per settings object, not per request.
const parsedRanges = new WeakMap<readonly string[], IpRange[]>();
function rangesOf(trustedProxies: readonly string[]): IpRange[] {
  let ranges = parsedRanges.get(trustedProxies);
  if (!ranges) {
    ranges = trustedProxies.map(parseIpRange).filter((r): r is IpRange => r !== null);
    parsedRanges.set(trustedProxies, ranges);
  }
  return ranges;
}

/** Whether the address is one of TRUST_PROXY's addresses or inside one of its ranges. */
export function isTrustedProxy(address: string | undefined | null, trustedProxies: readonly string[]): boolean {
  if (trustedProxies.length === 0) return false;
  const groups = parseIp(address);
  return !!groups && rangesOf(trustedProxies).some((range) => inRange(groups, range));
}

/** The entries of a header that may arrive several times (joined by commas), in order. */
const entries = (value: string | null): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The client behind a request, by one rule: the network peer, unless that
 * peer is a trusted proxy, and then the address that proxy itself wrote.
 * With `x-forwarded-for` (the default) that is the right-most entry that is
 * not itself a trusted proxy: every proxy appends the address it saw, so
 * entries to the left of it are whatever the client sent. With `x-real-ip`
 * (a proxy that sets the header, overwriting the client's) it is that
 * header's last value, and X-Forwarded-For is not read. A client's own
 * X-Real-IP, X-Forwarded-For, CF-Connecting-IP, True-Client-IP… change
 * nothing. Where the proxy's value is not an address, the proxy itself is
 * the client (its clients share one budget rather than choose their own).
 * Returns the address as given, or undefined without a peer.
 */
export function resolveClientAddress(
  peer: string | undefined,
  headers: Headers,
  trustedProxies: readonly string[],
  header: ProxyHeader = 'x-forwarded-for',
): string | undefined {
  if (!peer || !isTrustedProxy(peer, trustedProxies)) return peer;
  if (header === 'x-real-ip') {
    const written = entries(headers.get('x-real-ip')).pop();
    return clientKeyOf(written) ? written : peer;
  }
  const hops = entries(headers.get('x-forwarded-for'));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!clientKeyOf(hop)) return peer;
    if (!isTrustedProxy(hop, trustedProxies)) return hop;
  }
  // Every hop is one of ours: the farthest is the client (an internal caller).
  return hops[0] ?? peer;
}

/** The rate-limit key of the client behind a request (see resolveClientAddress). */
export function resolveClient(
  peer: string | undefined,
  headers: Headers,
  trustedProxies: readonly string[],
  header: ProxyHeader = 'x-forwarded-for',
): string | null {
  return clientKeyOf(resolveClientAddress(peer, headers, trustedProxies, header));
}

/**
 * The scheme the client used, as a trusted proxy reports it (TLS ends at
 * the proxy, which talks plain HTTP to us): the last `X-Forwarded-Proto`
 * value, else `proto=` in the last element of `Forwarded` (RFC 7239), each
 * the one the nearest proxy wrote. Undefined when the peer is no trusted
 * proxy or says nothing usable (only http and https are believed).
 */
export function forwardedProto(
  peer: string | undefined,
  headers: Headers,
  trustedProxies: readonly string[],
): 'http' | 'https' | undefined {
  if (!peer || !isTrustedProxy(peer, trustedProxies)) return undefined;
  const said = entries(headers.get('x-forwarded-proto')).pop() ?? protoOfForwarded(headers.get('forwarded'));
  const proto = said?.toLowerCase();
  return proto === 'http' || proto === 'https' ? proto : undefined;
}

/**
 * `proto=` of the last element of a Forwarded header (`for=…;proto=https,
 * for=…;proto=http`: elements by commas, pairs by semicolons, values maybe
 * quoted). Hand-written rather than a dependency: one parameter, read by
 * splitting; quoted commas and semicolons cannot change which value is
 * found for `proto`, since neither http nor https holds one. Fuzzed in
 * test/unit/forwarded-proto.test.ts.
 */
function protoOfForwarded(value: string | null): string | undefined {
  const last = entries(value).pop();
  if (!last) return undefined;
  for (const pair of last.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'proto') {
      return pair
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
    }
  }
  return undefined;
}
