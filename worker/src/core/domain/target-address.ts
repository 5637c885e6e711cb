import { type IpGroups, inRange, isIpv4, parseIp, parseIpRange } from '../../wire/ip-address.js';

/**
 * Where the service may send requests on a user's behalf (webhooks): public
 * unicast addresses only. Everything a request could use to reach the
 * service's own machine, its network or a cloud's metadata service is
 * refused: loopback, private, link-local, carrier-grade NAT, multicast,
 * documentation, benchmarking and reserved ranges, IPv6 unique-local and
 * site-local, and the IPv6 forms that carry an IPv4 address (mapped,
 * compatible, NAT64, 6to4), which are judged by the address they carry.
 * IPv6 outside 2000::/3 is not global unicast and refused as a whole.
 */

const range = (cidr: string) => {
  const parsed = parseIpRange(cidr);
  if (!parsed) throw new Error(`bad range ${cidr}`);
  return parsed;
};

const IPV4_REFUSED: ReadonlyArray<readonly [ReturnType<typeof range>, string]> = [
  [range('0.0.0.0/8'), 'a "this network" address'],
  [range('10.0.0.0/8'), 'a private address'],
  [range('100.64.0.0/10'), 'a carrier-grade NAT address'],
  [range('127.0.0.0/8'), 'a loopback address'],
  // 169.254.169.254 is the metadata service of AWS, GCP, Azure and others.
  [range('169.254.0.0/16'), 'a link-local (cloud metadata) address'],
  [range('172.16.0.0/12'), 'a private address'],
  [range('192.0.0.0/24'), 'a reserved address'],
  [range('192.0.2.0/24'), 'a documentation address'],
  [range('192.88.99.0/24'), 'a reserved address'],
  [range('192.168.0.0/16'), 'a private address'],
  [range('198.18.0.0/15'), 'a benchmarking address'],
  [range('198.51.100.0/24'), 'a documentation address'],
  [range('203.0.113.0/24'), 'a documentation address'],
  [range('224.0.0.0/4'), 'a multicast address'],
  [range('240.0.0.0/4'), 'a reserved address'],
];

const IPV6_REFUSED: ReadonlyArray<readonly [ReturnType<typeof range>, string]> = [
  [range('::/128'), 'the unspecified address'],
  [range('::1/128'), 'a loopback address'],
  [range('::/96'), 'an IPv4-compatible address'],
  [range('64:ff9b:1::/48'), 'a local NAT64 address'],
  [range('100::/64'), 'a discard address'],
  [range('2001::/23'), 'a reserved (IETF protocol) address'],
  [range('2001:db8::/32'), 'a documentation address'],
  [range('fc00::/7'), 'a unique-local (private) address'],
  [range('fe80::/10'), 'a link-local address'],
  [range('fec0::/10'), 'a site-local address'],
  [range('ff00::/8'), 'a multicast address'],
];
const GLOBAL_UNICAST = range('2000::/3');
const NAT64 = range('64:ff9b::/96');
const SIX_TO_FOUR = range('2002::/16');

const mapped = (hi: number, lo: number): IpGroups => [0, 0, 0, 0, 0, 0xffff, hi, lo];

/** Why the address may not be a target (what kind of address it is), or null for a public unicast one. */
export function addressRefusal(address: IpGroups): string | null {
  if (isIpv4(address)) return IPV4_REFUSED.find(([r]) => inRange(address, r))?.[1] ?? null;
  // Forms that carry an IPv4 address reach that address: judge it.
  if (inRange(address, NAT64)) return addressRefusal(mapped(address[6]!, address[7]!));
  if (inRange(address, SIX_TO_FOUR)) return addressRefusal(mapped(address[1]!, address[2]!));
  const refused = IPV6_REFUSED.find(([r]) => inRange(address, r));
  if (refused) return refused[1];
  return inRange(address, GLOBAL_UNICAST) ? null : 'not a global unicast address';
}

/** Names that resolve to the machine or its local network wherever they are looked up. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet'];

/**
 * Why a URL host may not be a target, judged from the host alone: an IP
 * literal by its address, a name if it is local by definition (`localhost`,
 * `*.local`, `*.internal` such as metadata.google.internal, or a single
 * label). Names are looked up and judged again where the runtime can
 * resolve them (Node), right before connecting.
 *
 * The reason is a noun phrase naming the host the caller gave, so that it
 * completes "url must not point at …": "a loopback address (127.0.0.1)".
 */
export function hostRefusal(hostname: string): string | null {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const ip = parseIp(host);
  if (ip) {
    const why = addressRefusal(ip);
    return why && `${why} (${host})`;
  }
  if (host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return `a local name (${host})`;
  if (!host.includes('.')) return `a local, single-label name (${host})`;
  return null;
}

/**
 * Why a name may not be a target once resolved, without what it resolved to
 * or what kind of address that is: a caller who may create webhooks learns
 * only that the name leads somewhere non-public, not the answers of the
 * service's own resolver (which may see internal names). The address is for
 * the server's log alone.
 */
export const resolvedRefusal = (host: string): string => `a non-public address (what ${host} resolves to)`;

/**
 * The error a refused delivery stores and shows, whatever the reason: the
 * same words for every refusal, so that the delivery log (readable by whoever
 * manages webhooks) never names an address a name resolved to.
 */
export const REFUSED_DELIVERY = 'refused: private address';
