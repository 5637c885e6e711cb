import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { json, multipart, must, send } from '../../scripts/reliability/lib/http.ts';
import { registerOwner } from '../../scripts/reliability/lib/stack.ts';
import { PNG_1x1 } from '../support/images.js';
import { type ServerCluster, startCluster } from '../support/server-cluster.js';
import { type ReceiverServer, startReceiver } from '../support/webhook-receiver.node.js';

/**
 * Two real server processes on one database and one S3 bucket behind a
 * round-robin proxy, as an operator scales out: every promise the API makes
 * must hold whichever instance answers (docs/architecture.md, docs/api.md).
 * The scheduler ticks every 10 s, so the 5-second frequent jobs run between.
 */
describe.each([['postgres'], ['mysql']] as const)(
  'two Node instances on %s behind a round-robin proxy',
  {
    timeout: 45_000,
  },
  (db) => {
    let cluster: ServerCluster;
    let receiver: ReceiverServer;
    let token: string;
    let proxy: string;

    beforeAll(async () => {
      await buildNode();
      receiver = await startReceiver();
      cluster = await startCluster(db, 2, { SCHEDULER_INTERVAL_SECONDS: '10', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
      proxy = cluster.proxy.url;
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
      await receiver?.close();
    });

    const call = <T>(method: string, path: string, expected: number, body?: unknown, origin = proxy) =>
      must<T>(origin, method, path, expected, { token, body });
    const article = async (title: string) =>
      (await call<{ article: { id: string } }>('POST', '/v1/articles', 201, { title })).article.id;
    const hook = async (events: string[]) => {
      const endpoint = receiver.endpoint();
      await call('POST', '/v1/webhooks', 201, { url: endpoint.url, events });
      return endpoint;
    };

    it('starts both instances at once on the empty database, each ready', async () => {
      expect(cluster.instances).toHaveLength(2);
      for (const instance of cluster.instances)
        expect((await send(instance.url, { path: '/readyz' })).status).toBe(200);
      token = await registerOwner({ url: proxy, log: cluster.log });
    });

    it('reads every write back on the next request, whichever instance answers', async () => {
      const id = await article('first');
      for (let i = 0; i < 4; i++) {
        await call('PATCH', `/v1/articles/${id}`, 200, { title: `title ${i}` });
        const read = await call<{ article: { title: string } }>('GET', `/v1/articles/${id}`, 200);
        expect(read.article.title).toBe(`title ${i}`);
      }
      expect(new Set(cluster.proxy.served)).toEqual(new Set([0, 1]));
    });

    it('answers a conditional read with 304 on each instance until a write on the other, then in full', async () => {
      const id = await article('conditional');
      await call('POST', `/v1/articles/${id}/publish`, 200);
      const path = `/v1/articles/${id}`;
      const [a, b] = cluster.instances.map((instance) => instance.url) as [string, string];
      const read = async (origin: string, etag: string) => {
        const res = await send(origin, { path, headers: { 'if-none-match': etag } });
        return { status: res.status, etag: String(res.headers.etag) };
      };
      let etag = String((await send(a, { path })).headers.etag);
      // Twice each: the second answer comes from what the instance remembers of the first.
      for (const origin of [a, b, a, b]) expect(await read(origin, etag)).toEqual({ status: 304, etag });
      for (const [writer, reader] of [
        [a, b],
        [b, a],
      ] as const) {
        await call('PATCH', path, 200, { title: `written on ${writer}` }, writer);
        const fresh = await read(reader, etag);
        expect(fresh.status).toBe(200);
        expect(fresh.etag).not.toBe(etag);
        etag = fresh.etag;
        for (const origin of [reader, reader, writer]) expect(await read(origin, etag)).toEqual({ status: 304, etag });
      }
    });

    it('shares the login limit: five wrong passwords over both instances, then 429 on each', async () => {
      const login = (origin: string) =>
        json(origin, 'POST', '/v1/auth/login', { body: { email: 'guess@example.com', password: 'not the password' } });
      for (let i = 0; i < 5; i++) expect((await login(proxy)).status).toBe(401);
      for (const instance of cluster.instances) expect((await login(instance.url)).status).toBe(429);
    });

    it('publishes scheduled articles exactly once: one activity entry and one event each', async () => {
      const endpoint = await hook(['article.published']);
      const ids = await Promise.all(['a', 'b', 'c', 'd'].map((t) => article(`scheduled ${t}`)));
      const publishAt = new Date(Date.now() + 2000).toISOString();
      for (const id of ids) await call('POST', `/v1/articles/${id}/schedule`, 200, { publishAt });
      await vi.waitFor(
        async () => {
          for (const id of ids) {
            const { article: read } = await call<{ article: { status: string } }>('GET', `/v1/articles/${id}`, 200);
            expect(read.status).toBe('online');
          }
        },
        { timeout: 30_000, interval: 500 },
      );
      const activity = await call<{ items: { subjectId: string }[] }>(
        'GET',
        '/v1/activity?action=article.publish&limit=100',
        200,
      );
      // Exactly one entry per scheduled article (other tests on this cluster publish too).
      const published = activity.items.map((e) => e.subjectId).filter((id) => ids.includes(id));
      expect(published.sort()).toEqual([...ids].sort());
      // At least once per event, and one event per article.
      const received = await vi.waitFor(
        async () => {
          const all = await endpoint.received();
          expect(new Set(all.map((r) => JSON.parse(r.body).data.id))).toEqual(new Set(ids));
          return all;
        },
        { timeout: 20_000, interval: 250 },
      );
      const eventsPerArticle = new Map<string, Set<string>>();
      for (const r of received) {
        const id = JSON.parse(r.body).data.id as string;
        eventsPerArticle.set(id, (eventsPerArticle.get(id) ?? new Set()).add(r.headers['webhook-id']!));
      }
      for (const events of eventsPerArticle.values()) expect(events.size).toBe(1);
    });

    it('runs concurrent purges one at a time: 200 or 409 each, none failed, one copy left, no broken reference', async () => {
      const [a, b] = [await article('purge a'), await article('purge b')];
      const images: { url: string; sha256: string }[] = [];
      for (const id of [a, b]) {
        const { body, contentType } = multipart(PNG_1x1, { filename: 'dot.png', type: 'image/png' });
        const res = await send(proxy, {
          method: 'POST',
          path: `/v1/articles/${id}/images`,
          headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
          body,
        });
        expect(res.status).toBe(201);
        images.push(JSON.parse(res.body.toString('utf8')).image);
      }
      await call('PATCH', `/v1/articles/${b}`, 200, { body: `![dot](${new URL(images[1]!.url).pathname})` });
      const origins = [0, 1, 0, 1].map((i) => cluster.instances[i]!.url);
      const answers = await Promise.all(origins.map((origin) => json(origin, 'POST', '/v1/media/purge', { token })));
      for (const res of answers) {
        expect([200, 409]).toContain(res.status);
        const body = res.json as { run?: { status: string }; error?: { code: string } };
        if (res.status === 200) expect(body.run?.status).toBe('succeeded');
        else expect(Object.keys(body)).toEqual(['error']);
        if (res.status === 409) expect(body.error?.code).toBe('conflict');
      }
      expect(answers.some((res) => res.status === 200)).toBe(true);
      const runs = await call<{ items: { status: string }[] }>('GET', '/v1/media/purge/runs?limit=100', 200);
      expect(runs.items.filter((r) => r.status !== 'succeeded')).toEqual([]);
      const library = await call<{ items: { sha256: string }[] }>('GET', '/v1/media?limit=100', 200);
      expect(library.items.filter((i) => i.sha256 === images[0]!.sha256)).toHaveLength(1);
      for (const id of [a, b]) {
        const { article: read } = await call<{ article: { body: string; images: { url: string }[] } }>(
          'GET',
          `/v1/articles/${id}`,
          200,
        );
        const linked = [
          ...read.images.map((i) => new URL(i.url).pathname),
          ...(read.body.match(/\/static\/\S+\.png/g) ?? []),
        ];
        expect(linked.length).toBeGreaterThan(0);
        for (const path of linked) expect((await send(proxy, { path })).status).toBe(200);
      }
    });

    it('sends a delivery whose instance was killed mid-request again, under the same webhook-id, within 15 s', async () => {
      const endpoint = await hook(['article.published']);
      // The first request is held unanswered: the instance sending it is killed meanwhile.
      await endpoint.answer([0]);
      const id = await article('killed mid-delivery');
      const [first] = cluster.instances;
      await call('POST', `/v1/articles/${id}/publish`, 200, undefined, first!.url);
      await vi.waitFor(async () => expect(await endpoint.received()).toHaveLength(1), {
        timeout: 10_000,
        interval: 100,
      });
      await cluster.kill(first!);
      const received = await vi.waitFor(
        async () => {
          const all = await endpoint.received();
          expect(all.length).toBeGreaterThanOrEqual(2);
          return all;
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(received.at(-1)!.status).toBe(204);
      expect(JSON.parse(received.at(-1)!.body).data.id).toBe(id);
    });
  },
);
