import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeWebhookTransport, type Resolver } from '../../worker/src/adapters/webhook/node.webhook-transport.js';
import { type ReceiverServer, startReceiver } from '../support/webhook-receiver.node.js';

/** A resolver that knows a few made-up names: no real DNS is asked (the tests have no network). */
const resolver =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const post = (url: string, allowPrivate: boolean, timeoutMs = 5000) => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  body: '{"type":"webhook.test"}',
  timeoutMs,
  allowPrivate,
});

describe('Node webhook transport', () => {
  let receiver: ReceiverServer;
  let port: number;
  let silent: Server;
  let silentPort: number;
  beforeAll(async () => {
    receiver = await startReceiver();
    port = Number(new URL(receiver.url).port);
    // Takes the connection and never answers.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await receiver?.close();
    silent?.closeAllConnections();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('connects to the address it resolved and checked, never looking the name up again', async () => {
    const endpoint = receiver.endpoint();
    const path = new URL(endpoint.url).pathname;
    // hooks.test exists only in this resolver: reaching the receiver proves the pinned address was used.
    const transport = createNodeWebhookTransport(resolver({ 'hooks.test': ['127.0.0.1'] }));
    const result = await transport.post(post(`http://hooks.test:${port}${path}`, true));
    expect(result).toEqual({ ok: true, status: 204 });
    const [got] = await endpoint.received();
    expect(got!.headers.host).toBe(`hooks.test:${port}`);
    expect(got!.headers['webhook-id']).toBe('msg_1');
    expect(got!.body).toBe('{"type":"webhook.test"}');
  });

  it('refuses a name that resolves to a private address, or to any private one among public ones', async () => {
    const transport = createNodeWebhookTransport(
      resolver({
        'rebind.test': ['127.0.0.1'],
        'mixed.test': ['93.184.215.14', '10.0.0.7'],
        'mapped.test': ['::ffff:169.254.169.254'],
        'public.test': ['93.184.215.14'],
      }),
    );
    const endpoint = receiver.endpoint();
    const path = new URL(endpoint.url).pathname;
    expect(await transport.post(post(`http://rebind.test:${port}${path}`, false))).toEqual({
      ok: false,
      error: 'refused: private address',
    });
    expect(await endpoint.received()).toEqual([]);
    // What a name resolved to is never told, nor what kind of address it is; an address given in the URL is named.
    expect(await transport.vet('http://mixed.test/', false)).toBe('a non-public address (what mixed.test resolves to)');
    expect(await transport.vet('http://mapped.test/', false)).toBe(
      'a non-public address (what mapped.test resolves to)',
    );
    expect(await transport.vet(`http://127.0.0.1:${port}/`, false)).toBe('a loopback address (127.0.0.1)');
    expect(await transport.vet('http://public.test/', false)).toBeNull();
    // Not resolvable now: judged again at every delivery.
    expect(await transport.vet('http://nowhere.test/', false)).toBeNull();
    expect(await transport.post(post('http://nowhere.test/', false))).toEqual({
      ok: false,
      error: 'nowhere.test does not resolve (ENOTFOUND)',
    });
    expect(await transport.vet('http://rebind.test/', true)).toBeNull();
  });

  it('follows no redirect: a 3xx is the answer', async () => {
    const target = receiver.endpoint();
    const redirector = createServer((_req, res) => {
      res.writeHead(307, { location: target.url });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/`;
      expect(await createNodeWebhookTransport().post(post(url, true))).toEqual({ ok: true, status: 307 });
      expect(await target.received()).toEqual([]);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });

  it('gives up on a silent endpoint after the timeout, and reports a closed port', async () => {
    const transport = createNodeWebhookTransport();
    const started = Date.now();
    expect(await transport.post(post(`http://127.0.0.1:${silentPort}/`, true, 300))).toEqual({
      ok: false,
      error: 'no answer within 0.3 s',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await transport.post(post('http://127.0.0.1:1/', true))).toEqual({ ok: false, error: 'connection refused' });
  });
});
