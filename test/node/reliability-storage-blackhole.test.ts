import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { PNG_1x1 } from '../support/images.js';
import { type RunningS3rver, startS3rver } from '../support/s3rver.js';
import { type ServerProcess, startServer } from '../support/server-process.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/**
 * Found by `npm run reliability` (faults, 4b): once the object store had
 * refused connections and come back, an upload to it while it was
 * black-holed (connections open, nothing answered) got no answer for 90 s
 * and more — the fetch ignored its abort signal. The S3 adapter's deadline
 * (15 s) must hold: 503, and no image row without its blob.
 */
describe('uploads while the object store is black-holed', () => {
  let cwd: string;
  let s3: RunningS3rver;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let token: string;
  let articleId: string;
  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-blackhole-'));
    s3 = await startS3rver('blackhole');
    proxy = await startTcpProxy(Number(new URL(s3.endpoint).port));
    server = await startServer(cwd, {
      JWT_SECRET: 'storage-blackhole-test-secret-0123456789',
      STORAGE_URL: `s3://${s3.bucket}?endpoint=${encodeURIComponent(`http://127.0.0.1:${proxy.port}`)}&region=${s3.region}&forcePathStyle=true`,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    const reg = await post('/v1/auth/register', { email: 'ada@example.test', password: 'a long enough password' });
    token = ((await reg.json()) as { token: string }).token;
    // Verified (the owner), so it may list the offline article's images. The log mailer's line is
    // written in the turn after the answer: waited for, with a deadline.
    const codeInLog = () => /\/verify\?code=([\w-]+)/.exec(server.output())?.[1];
    const deadline = Date.now() + 10_000;
    while (codeInLog() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const code = codeInLog();
    expect((await post('/v1/auth/verify', { code })).status).toBe(200);
    articleId = ((await (await post('/v1/articles', { title: 'x' }, token)).json()) as { article: { id: string } })
      .article.id;
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await s3?.stop();
    await rm(cwd, { recursive: true, force: true });
  });

  const post = (p: string, json: unknown, bearer?: string) =>
    fetch(`${server.url}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(json),
    });
  const upload = () => {
    const form = new FormData();
    form.set('file', new Blob([PNG_1x1], { type: 'image/png' }), 'x.png');
    return fetch(`${server.url}/v1/articles/${articleId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  };
  const rows = async () =>
    (
      (await (
        await fetch(`${server.url}/v1/articles/${articleId}/images`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { items: unknown[] }
    ).items.length;

  it('answers 503 within the adapter deadline and writes no row', async () => {
    const first = await upload();
    expect(first.status).toBe(201);
    const { url } = ((await first.json()) as { image: { url: string } }).image;
    proxy.cut();
    expect((await upload()).status).toBe(503);
    expect((await fetch(`${server.url}${new URL(url, server.url).pathname}`)).status).toBe(503);
    await proxy.restore();
    proxy.blackhole();
    const started = Date.now();
    const res = await upload();
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(20_000);
    await proxy.restore();
    expect(await rows()).toBe(1);
  }, 45_000);
});
