import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { createPbkdf2PasswordHasher } from '../../worker/src/adapters/auth/pbkdf2.password-hasher.js';
import { archivedUser, craftArchive } from '../support/archives.js';
import { HTML } from '../support/images.js';
import { REPO_ROOT } from '../support/paths.js';

const CLI = path.join(REPO_ROOT, 'dist/node/cli.mjs');
const PASSWORD = 'the archive knows this password';

/**
 * `npm run cms -- import --file` works on the installation directly, without
 * the HTTP route in front: the same importer, so the same refusals, and
 * nothing kept when it refuses (docs/backups.md, "Importing").
 */
describe('npm run cms -- import (crafted archives)', () => {
  let dir: string;
  const env = {
    DATABASE_URL: 'sqlite:./data/cms.db',
    STORAGE_URL: 'file:./data/uploads',
    JWT_SECRET: randomBytes(32).toString('base64url'),
  };
  const cms = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', CMS_APP_ROOT: REPO_ROOT, ...env },
      encoding: 'utf8',
    });
    return { status: r.status, out: r.stdout, err: r.stderr };
  };
  const archiveFile = async (name: string, bytes: Uint8Array) => {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    return file;
  };
  const users = () => {
    const db = new Database(path.join(dir, 'data/cms.db'), { readonly: true });
    try {
      return db.prepare('select email, role, password_hash as hash from users order by email').all() as {
        email: string;
        role: string;
        hash: string;
      }[];
    } finally {
      db.close();
    }
  };
  const originals = async () => readdir(path.join(dir, 'data/uploads/originals')).catch(() => []);

  beforeAll(async () => {
    await buildNode();
    dir = await mkdtemp(path.join(tmpdir(), 'cms-cli-import-'));
    const made = cms('create-owner', '--email', 'owner@example.com');
    expect(made.status, made.err).toBe(0);
  }, 120_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a planted password hash and a page named .png, naming the line, and keeps nothing', async () => {
    const hash = await createPbkdf2PasswordHasher().hash(PASSWORD);
    const planted = await archiveFile(
      'planted.ndjson.gz',
      await craftArchive({ users: [archivedUser({ email: 'planted@example.com', passwordHash: hash })] }),
    );
    const refused = cms('import', '--file', planted);
    expect(refused.status).toBe(1);
    expect(refused.err).toMatch(/^cms: Archive line 2: users\.passwordHash is never carried by an archive/m);
    const page = await archiveFile(
      'page.ndjson.gz',
      await craftArchive({ files: [{ contentType: 'image/png', bytes: HTML }] }),
    );
    const refusedPage = cms('import', '--file', page);
    expect(refusedPage.status).toBe(1);
    expect(refusedPage.err).toMatch(
      /Archive line \d+: originals\/[0-9a-f-]+\.png: The file is not a JPEG, PNG, WebP or GIF image/,
    );
    expect(users().map((u) => u.email)).toEqual(['owner@example.com']);
    expect(await originals()).toEqual([]);

    // The same account without the hash imports, and without a password.
    const clean = await archiveFile(
      'clean.ndjson.gz',
      await craftArchive({ users: [archivedUser({ email: 'planted@example.com' })] }),
    );
    const imported = cms('import', '--file', clean);
    expect(imported.status, imported.err).toBe(0);
    expect(JSON.parse(imported.out)).toMatchObject({ accountsWithoutPassword: 1, rows: { users: 1, articles: 1 } });
    const account = users().find((u) => u.email === 'planted@example.com')!;
    expect(account.role).toBe('admin');
    expect(await createPbkdf2PasswordHasher().verify(PASSWORD, account.hash)).toBe(false);
  }, 120_000);
});
