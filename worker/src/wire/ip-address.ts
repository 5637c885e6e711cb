/**
 * IP addresses and ranges, as the TRUST_PROXY setting and the client-address
 * rule read them. Every address becomes eight 16-bit groups; an IPv4 address
 * is its IPv4-mapped form (`::ffff:a.b.c.d`), so `::ffff:10.0.0.1` and
 * `10.0.0.1` are one address and IPv4 ranges match both spellings.
 *
 * Strict on purpose: only dotted-decimal IPv4 (no `127.1`, no octal or hex
 * parts, which some parsers accept) and RFC 4291 IPv6 text. The input is a
 * request header or a setting, so the work is bounded by a length check first.
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
// The longest textual address (IPv6 with an IPv4 tail) is 45 characters.
const MAX_ADDRESS_LENGTH = 45;

export type IpGroups = readonly number[];

export interface IpRange {
  groups: IpGroups;
  /** Leading bits that must match, 0..128 (an IPv4 /n is 96 + n). */
  bits: number;
}

function ipv4Groups(address: string): number[] | null {
  if (!IPV4.test(address)) return null;
  const [b0, b1, b2, b3] = address.split('.').map(Number) as [number, number, number, number];
  return [0, 0, 0, 0, 0, 0xffff, (b0 << 8) | b1, (b2 << 8) | b3];
}

function ipv6Groups(address: string): number[] | null {
  let a = address;
  let tail: number[] = [];
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) is two 16-bit groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const v4 = ipv4Groups(dotted[2]!);
    if (!v4) return null;
    tail = v4.slice(6);
    a = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === '' ? [] : s.split(':'));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const groups = [...head, ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const missing = 8 - groups.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const nums = groups.map((g) => parseInt(g, 16));
  return [
    ...nums.slice(0, head.length),
    ...Array(halves.length === 2 ? missing : 0).fill(0),
    ...nums.slice(head.length),
    ...tail,
  ];
}

/** Trimmed, lower case, without `[…]` brackets or an IPv6 zone (`%eth0`). */
function bare(raw: string): string {
  return raw
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
}

/** The address's eight groups, or null for anything that is not one IP address. */
export function parseIp(raw: string | null | undefined): IpGroups | null {
  if (typeof raw !== 'string' || raw.length > MAX_ADDRESS_LENGTH + 20) return null;
  const address = bare(raw);
  if (address.length > MAX_ADDRESS_LENGTH) return null;
  if (IPV4.test(address)) return ipv4Groups(address);
  return address.includes(':') ? ipv6Groups(address) : null;
}

/** Whether the groups are an IPv4 address (IPv4-mapped). */
export const isIpv4 = (groups: IpGroups): boolean => groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;

/** `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`, `::1`: an address is a range of one. Null when malformed. */
export function parseIpRange(raw: string): IpRange | null {
  const slash = raw.indexOf('/');
  const groups = parseIp(slash === -1 ? raw : raw.slice(0, slash));
  if (!groups) return null;
  const v4 = isIpv4(groups) && IPV4.test(bare(slash === -1 ? raw : raw.slice(0, slash)));
  if (slash === -1) return { groups, bits: 128 };
  const prefix = raw.slice(slash + 1).trim();
  if (!/^\d{1,3}$/.test(prefix)) return null;
  const n = Number(prefix);
  if (n > (v4 ? 32 : 128)) return null;
  return { groups, bits: v4 ? 96 + n : n };
}

/** Whether the address lies in the range (its first `bits` bits are the range's). */
export function inRange(address: IpGroups, range: IpRange): boolean {
  let bits = range.bits;
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((address[i]! & mask) !== (range.groups[i]! & mask)) return false;
  }
  return true;
}
