import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { RUNTIME_PACKAGES } from '../../scripts/lib/runtime-deps.ts';
import { JPEG_400x300 } from '../support/images.js';
import { REPO_ROOT } from '../support/paths.js';
import { type ServerProcess, startServer } from '../support/server-process.js';

/**
 * The container's runtime stage without Docker (not on this machine): the
 * same layout the Dockerfile copies — the bundle, the migrations, and only
 * the node_modules that `scripts/runtime-deps.ts` copies — serves the API,
 * opens SQLite (native) and makes a WebP variant (wasm read from
 * node_modules in the render thread).
 */
describe('the Node bundle with only its runtime packages', () => {
  let app: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    await buildNode();
    app = await mkdtemp(path.join(tmpdir(), 'cms-runtime-'));
    const copy = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/runtime-deps.ts'), app], {
      encoding: 'utf8',
    });
    expect(copy.status, copy.stderr).toBe(0);
    cpSync(path.join(REPO_ROOT, 'dist/node'), path.join(app, 'dist/node'), { recursive: true });
    for (const dialect of ['sqlite', 'mysql', 'postgres'])
      cpSync(path.join(REPO_ROOT, `drizzle/${dialect}/migrations`), path.join(app, `drizzle/${dialect}/migrations`), {
        recursive: true,
      });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(app, { recursive: true, force: true });
  });

  it('holds the runtime packages and what they need, and nothing else', () => {
    const top = readdirSync(path.join(app, 'node_modules')).flatMap((n) =>
      n.startsWith('@') ? readdirSync(path.join(app, 'node_modules', n)).map((m) => `${n}/${m}`) : [n],
    );
    expect(top).toEqual(expect.arrayContaining([...RUNTIME_PACKAGES]));
    for (const bundled of ['hono', 'zod', 'drizzle-orm', '@cf-wasm/photon', 'aws4fetch', 'jose', 'worker-mailer'])
      expect(top, bundled).not.toContain(bundled);
    // better-sqlite3 without its C sources and other platforms' binaries.
    expect(existsSync(path.join(app, 'node_modules/better-sqlite3/deps'))).toBe(false);
    expect(readdirSync(path.join(app, 'node_modules/better-sqlite3/prebuilds'))).toEqual([
      `${process.platform}-${process.arch}.node`,
    ]);
  });

  it('serves, stores in SQLite and makes a WebP variant', async () => {
    server = await startServer(app, {});
    const post = (p: string, body: unknown, token?: string) =>
      fetch(`${server!.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const email = 'runtime@example.com';
    const password = 'a long enough password';
    expect((await post('/v1/auth/register', { email, password })).status).toBe(201);
    const code = /\/verify\?code=([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
    expect((await post('/v1/auth/verify', { code })).status).toBe(200);
    const { token } = (await (await post('/v1/auth/login', { email, password })).json()) as { token: string };
    const article = (await (await post('/v1/articles', { title: 'Runtime' }, token)).json()) as {
      article: { id: string };
    };
    const form = new FormData();
    form.set('file', new Blob([JPEG_400x300 as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'photo.jpg');
    const uploaded = await fetch(`${server.url}/v1/articles/${article.article.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { image } = (await uploaded.json()) as { image: { url: string } };
    const variant = await fetch(new URL(`${image.url}?w=160&format=webp`, server.url));
    expect(variant.status).toBe(200);
    expect(variant.headers.get('content-type')).toBe('image/webp');
    expect(existsSync(path.join(app, 'data/cms.db'))).toBe(true);
  });
});
