import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalDirBlobStore } from '../../../worker/src/adapters/blob/local-dir.blob-store.js';
import { pseudoRandom, readAll, runBlobStoreContract } from '../../contract/blob-store.contract.js';

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cms-localdir-'));
  temps.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

runBlobStoreContract('local dir', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cms-localdir-contract-'));
  return { store: createLocalDirBlobStore(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
});

/** Every file name under dir, relative, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('local dir specifics', () => {
  it('keeps files byte for byte under the root and leaves no temp files', async () => {
    const root = await tempDir();
    const store = createLocalDirBlobStore(root);
    const data = pseudoRandom(70_000, 9);
    await store.put('originals/a.png', data, 'image/png');
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => store.put('originals/b.jpg', pseudoRandom(50_000, i), 'image/jpeg')),
    );
    await store
      .put('originals/a.png', pseudoRandom(10, 1), 'image/png')
      .then(() => store.put('originals/a.png', data, 'image/png'));
    await expect(store.put('originals/c.png', data, 'text/html')).rejects.toMatchObject({ code: 'invalid_request' });
    expect(new Uint8Array(await readFile(path.join(root, 'originals', 'a.png')))).toEqual(data);
    expect((await filesUnder(root)).sort()).toEqual([path.join('originals', 'a.png'), path.join('originals', 'b.jpg')]);
  });

  it('takes the content type from the extension and refuses a contradicting one', async () => {
    const store = createLocalDirBlobStore(await tempDir());
    await store.put('x/readme.txt', new TextEncoder().encode('hi'), 'text/plain');
    expect((await store.head('x/readme.txt'))?.contentType).toBe('text/plain; charset=utf-8');
    await store.put('x/noext', new Uint8Array([1]), 'application/octet-stream');
    expect((await store.head('x/noext'))?.contentType).toBe('application/octet-stream');
    await expect(store.put('x/evil.png', new Uint8Array([1]), 'text/html')).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await store.head('x/evil.png')).toBeNull();
  });

  it('never writes outside the root for a traversal key', async () => {
    const parent = await tempDir();
    const root = path.join(parent, 'store');
    const store = createLocalDirBlobStore(root);
    await store.ping();
    for (const key of ['../x.bin', 'a/../../x.bin', '..', '%2e%2e/x.bin']) {
      await expect(store.put(key, new Uint8Array([1]), 'application/octet-stream')).rejects.toMatchObject({
        code: 'invalid_request',
      });
    }
    expect(await readdir(parent)).toEqual(['store']);
    expect(await readdir(root)).toEqual([]);
  });

  it('hides a put in progress from readers', async () => {
    const root = await tempDir();
    const store = createLocalDirBlobStore(root);
    const put = store.put('big/object.bin', new Uint8Array(48 << 20).fill(5), 'application/octet-stream');
    let sawTemp = false;
    for (let i = 0; i < 2000 && !sawTemp; i++) {
      const names = await readdir(path.join(root, 'big')).catch(() => [] as string[]);
      if (names.some((n) => n.includes('~'))) {
        sawTemp = true;
        expect(await store.head('big/object.bin')).toBeNull();
        expect(await store.get('big/object.bin')).toBeNull();
        expect((await store.list('big/')).items).toEqual([]);
      }
    }
    await put;
    expect(sawTemp).toBe(true);
    expect((await store.head('big/object.bin'))?.size).toBe(48 << 20);
    expect(await readdir(path.join(root, 'big'))).toEqual(['object.bin']);
  });

  describe('a put killed half-way', () => {
    let bundle: string;
    beforeAll(async () => {
      const dir = await tempDir();
      bundle = path.join(dir, 'store.mjs');
      await build({
        entryPoints: [path.resolve(import.meta.dirname, '../../../worker/src/adapters/blob/local-dir.blob-store.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: bundle,
        logLevel: 'silent',
      });
      await writeFile(path.join(dir, 'child.mjs'), CHILD);
    });

    it('leaves the previous version whole and the new one invisible', async () => {
      const root = await tempDir();
      const store = createLocalDirBlobStore(root);
      const old = pseudoRandom(4096, 77);
      await store.put('originals/k.bin', old, 'application/octet-stream');

      const child = fork(path.join(path.dirname(bundle), 'child.mjs'), [root], { execArgv: [], stdio: 'pipe' });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_, signal) => resolve(signal)));
      const message = await new Promise<unknown>((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', () => reject(new Error('child exited before writing half of the object')));
      });
      expect(message).toBe('half-written');
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      // The interrupted write really is on disk, as a temp file holding part of the data...
      const names = await readdir(path.join(root, 'originals'));
      const temp = names.find((n) => n.includes('~'));
      expect(temp).toBeDefined();
      expect((await stat(path.join(root, 'originals', temp!))).size).toBe(2 << 20);
      // ...and no reader can see it.
      const object = await store.get('originals/k.bin');
      expect(object?.size).toBe(old.length);
      expect(await readAll(object!.body)).toEqual(old);
      expect((await store.list('')).items.map((i) => i.key)).toEqual(['originals/k.bin']);

      // A later put of the same key works; the stale temp file is swept by list once old.
      await store.put('originals/k.bin', pseudoRandom(10, 1), 'application/octet-stream');
      expect((await store.head('originals/k.bin'))?.size).toBe(10);
      const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await utimes(path.join(root, 'originals', temp!), hourAgo, hourAgo);
      await store.list('');
      expect(await readdir(path.join(root, 'originals'))).toEqual(['k.bin']);
    });
  });

  it('keeps a fresh temp file (a put in progress elsewhere) while sweeping', async () => {
    const root = await tempDir();
    const store = createLocalDirBlobStore(root);
    await mkdir(path.join(root, 'o'));
    await writeFile(path.join(root, 'o', 'a.bin.~123456789abc'), 'partial');
    await store.list('');
    expect(await readdir(path.join(root, 'o'))).toEqual(['a.bin.~123456789abc']);
  });

  it('treats a key that is a directory of other keys as a conflict, not an object', async () => {
    const store = createLocalDirBlobStore(await tempDir());
    await store.put('col/x.bin', new Uint8Array([1]), 'application/octet-stream');
    await expect(store.put('col', new Uint8Array([1]), 'application/octet-stream')).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(store.put('col/x.bin/y.bin', new Uint8Array([1]), 'application/octet-stream')).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await store.get('col')).toBeNull();
    expect(await store.head('col')).toBeNull();
    await expect(store.delete('col')).resolves.toBeUndefined();
    expect((await store.head('col/x.bin'))?.size).toBe(1);
  });

  it('refuses a malformed cursor and skips files that are not valid keys', async () => {
    const root = await tempDir();
    const store = createLocalDirBlobStore(root);
    await expect(store.list('', '../etc')).rejects.toMatchObject({ code: 'invalid_request' });
    await writeFile(path.join(root, 'has space.bin'), 'x');
    await store.put('ok.bin', new Uint8Array([1]), 'application/octet-stream');
    expect((await store.list('')).items.map((i) => i.key)).toEqual(['ok.bin']);
  });

  it('does not follow a symlink planted in the tree', async () => {
    const parent = await tempDir();
    const root = path.join(parent, 'store');
    await writeFile(path.join(parent, 'secret.txt'), 'outside');
    const store = createLocalDirBlobStore(root);
    await store.put('ok.txt', new TextEncoder().encode('inside'), 'text/plain');
    await symlink(path.join(parent, 'secret.txt'), path.join(root, 'link.txt'));
    expect(await store.get('link.txt')).toBeNull();
    expect(await store.head('link.txt')).toBeNull();
    expect((await store.list('')).items.map((i) => i.key)).toEqual(['ok.txt']);
  });

  it('reports an unusable root as unavailable', async () => {
    const parent = await tempDir();
    const file = path.join(parent, 'not-a-dir');
    await writeFile(file, 'x');
    const store = createLocalDirBlobStore(file);
    await expect(store.ping()).rejects.toMatchObject({ code: 'unavailable' });
  });
});

/**
 * Runs a put in a separate process and freezes it after two 1 MiB chunks of
 * an 8 MiB object, so the parent can kill it mid-write. The fault is injected
 * by wrapping FileHandle.write in the child only.
 */
const CHILD = `
import { open } from 'node:fs/promises';
import { createLocalDirBlobStore } from './store.mjs';
const probe = await open(process.argv[1], 'r');
const proto = Object.getPrototypeOf(probe);
await probe.close();
const write = proto.write;
let calls = 0;
proto.write = async function (...args) {
  calls += 1;
  if (calls === 3) {
    process.send('half-written');
    await new Promise(() => {});
  }
  return write.apply(this, args);
};
const store = createLocalDirBlobStore(process.argv[2]);
await store.put('originals/k.bin', new Uint8Array(8 << 20).fill(7), 'application/octet-stream');
process.send('finished');
`;
