/**
 * The rate-limit key of a client: its real network address, with every
 * spelling of one address folded together and IPv6 bucketed by /64 (one
 * customer usually holds a whole /64, so per-address budgets would be
 * worthless there).
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function expandIpv6(address: string): number[] | null {
  let a = address;
  let tail: number[] = [];
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) is two 16-bit groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    if (!IPV4.test(dotted[2]!)) return null;
    const [b0, b1, b2, b3] = dotted[2]!.split('.').map(Number) as [number, number, number, number];
    tail = [(b0 << 8) | b1, (b2 << 8) | b3];
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

/** `v4:1.2.3.4`, `v6:2001:db8:0:1::/64`, or null for something that is no IP address. */
export function clientKeyOf(raw: string | undefined | null): string | null {
  if (!raw) return null;
  const address = raw
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (IPV4.test(address)) return `v4:${address}`;
  if (!address.includes(':')) return null;
  const groups = expandIpv6(address);
  if (!groups) return null;
  // IPv4-mapped (::ffff:a.b.c.d) is the IPv4 client itself.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return `v4:${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `v6:${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** Whether two spellings name the same address (for the TRUST_PROXY list). */
export function sameAddress(a: string, b: string): boolean {
  const ka = clientKeyOf(a);
  if (!ka) return false;
  if (ka.startsWith('v4:')) return ka === clientKeyOf(b);
  const ga = expandIpv6(
    a
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/%.*$/, ''),
  );
  const gb = expandIpv6(
    b
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/%.*$/, ''),
  );
  return !!ga && !!gb && ga.every((g, i) => g === gb[i]);
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

/**
 * The client behind a request: the network peer, unless the peer is one of
 * our trusted proxies, in which case the address it reports in X-Real-IP
 * (or, failing that, the last untrusted hop of X-Forwarded-For). A client's
 * own X-Real-IP, X-Forwarded-For, True-Client-IP… change nothing. Returns
 * the address as given (checked to be one), or undefined.
 */
export function resolveClientAddress(
  peer: string | undefined,
  headers: Headers,
  trustedProxies: string[],
): string | undefined {
  if (!peer || !trustedProxies.some((p) => sameAddress(p, peer))) return peer;
  const realIp = headers.get('x-real-ip');
  if (realIp) {
    // Duplicate headers arrive joined by commas: the proxy's value is the last.
    const last = realIp
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (clientKeyOf(last)) return last;
  }
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trustedProxies.some((p) => sameAddress(p, hops[i]!))) return clientKeyOf(hops[i]) ? hops[i] : peer;
  }
  return peer;
}

/** The rate-limit key of the client behind a request (see resolveClientAddress). */
export function resolveClient(peer: string | undefined, headers: Headers, trustedProxies: string[]): string | null {
  return clientKeyOf(resolveClientAddress(peer, headers, trustedProxies));
}
