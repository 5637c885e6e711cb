import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { failureReason } from '../../core/domain/failure-reason.js';
import { addressRefusal, hostRefusal, REFUSED_DELIVERY, resolvedRefusal } from '../../core/domain/target-address.js';
import type { OutboundRequest, OutboundResult, WebhookTransport } from '../../ports/webhook-transport.js';
import { parseIp } from '../../wire/ip-address.js';

/** Every address a name resolves to. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type Target = { address: string; family: number } | { refused: string } | { error: string };

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Where to connect: the literal address, or the first address the name
 * resolves to, every one of them judged first (a name that resolves to a
 * public and a private address is refused: which one a connection would use
 * is not ours to pick). The caller connects to exactly this address, so a
 * name cannot resolve to something else between the check and the
 * connection (DNS rebinding).
 */
async function targetOf(url: URL, resolve: Resolver, allowPrivate: boolean): Promise<Target> {
  const host = bareHost(url);
  if (!allowPrivate) {
    const why = hostRefusal(host);
    if (why) return { refused: why };
  }
  if (parseIp(host)) return { address: host, family: host.includes(':') ? 6 : 4 };
  let found: { address: string; family: number }[];
  try {
    found = await resolve(host);
  } catch (err) {
    return { error: `${host} does not resolve (${(err as { code?: string }).code ?? 'lookup failed'})` };
  }
  if (found.length === 0) return { error: `${host} does not resolve` };
  if (!allowPrivate) {
    for (const { address } of found) {
      const ip = parseIp(address);
      const why = ip ? addressRefusal(ip) : 'not an IP address';
      if (why) return { refused: resolvedRefusal(host) };
    }
  }
  return found[0]!;
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'ECONNRESET') return 'connection reset';
  // Attempts are kept and shown: a classified reason, not the socket's message.
  return failureReason(err, 'request failed');
}

/** Webhook requests on Node: node:http(s), no connection reuse, no redirects, one pinned address. */
export function createNodeWebhookTransport(resolve: Resolver = systemResolver): WebhookTransport {
  return {
    async vet(url, allowPrivate) {
      if (allowPrivate) return null;
      const target = await targetOf(new URL(url), resolve, false);
      // A name that does not resolve now is judged again at every delivery.
      return 'refused' in target ? target.refused : null;
    },

    async post(request: OutboundRequest): Promise<OutboundResult> {
      const url = new URL(request.url);
      const target = await targetOf(url, resolve, request.allowPrivate);
      if ('refused' in target) return { ok: false, error: REFUSED_DELIVERY };
      if ('error' in target) return { ok: false, error: target.error };
      // Hands the connection the address judged above instead of a second lookup.
      const lookup: LookupFunction = (_hostname, options, callback) => {
        if (options.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      };
      // node:https (and with it node:tls) loads with the first https delivery, not at start-up.
      const client = url.protocol === 'https:' ? (await import('node:https')).default : http;
      return new Promise((done) => {
        const req = client.request({
          protocol: url.protocol,
          hostname: bareHost(url),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          lookup,
          agent: false,
          signal: AbortSignal.timeout(request.timeoutMs),
        });
        req.on('response', (res) => {
          // Only the status matters; the body is not read.
          res.destroy();
          done({ ok: true, status: res.statusCode ?? 0 });
        });
        req.on('error', (err) => done({ ok: false, error: describe(err, request.timeoutMs) }));
        req.end(request.body);
      });
    },
  };
}
