import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NODE_RELEASE_PATHS } from '../../scripts/lib/release-artifact.ts';
import { base64urlEncode, keyIdOf, sha256Hex } from '../../worker/src/core/releases/bytes.js';
import { signedBytes } from '../../worker/src/core/releases/canonical-json.js';
import { FEED_SCHEMA, MANIFEST_SCHEMA, type Manifest } from '../../worker/src/core/releases/manifest.js';
import { PINNED_RELEASE_KEYS, type PinnedKey } from '../../worker/src/core/releases/pinned-keys.js';
import { REPO_ROOT } from './paths.js';

/** Release keys and manifests made at test time (Web Crypto, like the verifier). */
export interface TestKey {
  keyId: string;
  publicKey: string;
  privateKey: CryptoKey;
  pinned(status?: PinnedKey['status']): PinnedKey;
}

export async function makeKey(): Promise<TestKey> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  const keyId = await keyIdOf(raw);
  const publicKey = base64urlEncode(raw);
  return {
    keyId,
    publicKey,
    privateKey: pair.privateKey,
    pinned: (status = 'active') => ({ keyId, publicKey, status }),
  };
}

export async function artifactOf(name: string, bytes: Uint8Array<ArrayBuffer>) {
  return { name, sha256: await sha256Hex(bytes), length: bytes.byteLength };
}

export function makeManifest(overrides: Partial<Manifest> = {}): Manifest {
  return {
    schema: MANIFEST_SCHEMA,
    product: 'edge-cms',
    target: 'node',
    version: '1.2.0',
    sequence: 10,
    issuedAt: '2026-11-01T00:00:00.000Z',
    expiresAt: '2027-02-01T00:00:00.000Z',
    minUpdateFrom: '1.0.0',
    notes: 'Fixes and features.',
    artifacts: [{ name: 'edge-cms-1.2.0-node.tar.gz', sha256: '0'.repeat(64), length: 1 }],
    ...overrides,
  };
}

export async function sign(manifest: unknown, keys: TestKey[]) {
  const bytes = signedBytes(manifest) as Uint8Array<ArrayBuffer>;
  const signatures = await Promise.all(
    keys.map(async (k) => ({
      keyId: k.keyId,
      sig: base64urlEncode(new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, k.privateKey, bytes))),
    })),
  );
  return { signed: manifest, signatures };
}

export function feedOf(releases: unknown[]) {
  return { schema: FEED_SCHEMA, updatedAt: '2026-11-01T00:00:00.000Z', releases };
}

export interface AppFixtureOptions {
  /** The version the server reports and its package.json says. */
  version: string;
  /** The two keys the build pins instead of the real release keys (test keys). */
  pins: readonly [PinnedKey, PinnedKey];
  /**
   * A release that applies one more SQLite migration (table `fixture_probe`)
   * and then fails at start-up: what a broken release looks like.
   */
  brokenAfterMigrating?: boolean;
  /** The install directory the supervisor runs from: link the repository's node_modules. */
  withNodeModules?: boolean;
}

/**
 * Replaces the one place `from` occurs in all of the bundle's files together
 * (the build splits it into chunks, so a text may live in any of them); any
 * run of whitespace in `from` matches any run in the bundle, since the
 * bundler keeps the source's line breaks inside object literals.
 */
function replaceOnce(files: Map<string, string>, from: string, to: string): void {
  const escaped = new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  const found = [...files].map(([name, text]) => [name, text.split(escaped)] as const).filter(([, p]) => p.length > 1);
  const count = found.reduce((n, [, parts]) => n + parts.length - 1, 0);
  if (count !== 1) throw new Error(`fixture: expected one ${JSON.stringify(from)} in the bundle, found ${count}`);
  const [name, parts] = found[0]!;
  files.set(name, parts.join(to));
}

/**
 * A built release tree in `dir` made from the real dist/node bundle (built
 * by scripts/build-node.ts: the server, its chunks and its render thread),
 * the way `release build --from DIR` packs it: relabelled with another
 * version and pinned to test keys, made active (the committed ones may all
 * be retired), both by exact, counted replacements so that a changed bundle
 * fails loudly; the migrations, package files and the supervisor.
 */
export function makeAppFixture(dir: string, opts: AppFixtureOptions) {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  const built = path.join(REPO_ROOT, 'dist/node');
  const files = new Map(
    readdirSync(built)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => [f, readFileSync(path.join(built, f), 'utf8')] as const),
  );
  replaceOnce(
    files,
    `name: "edge-cms",\n  version: "${pkg.version}",`,
    `name: "edge-cms",\n  version: "${opts.version}",`,
  );
  PINNED_RELEASE_KEYS.forEach((real, i) => {
    const pin = opts.pins[i]!;
    replaceOnce(
      files,
      `keyId: "${real.keyId}", publicKey: "${real.publicKey}", status: "${real.status}"`,
      `keyId: "${pin.keyId}", publicKey: "${pin.publicKey}", status: "active"`,
    );
  });
  if (opts.brokenAfterMigrating)
    replaceOnce(
      files,
      'const app = createApp(deps);',
      'throw new Error("fixture: this release fails after its migrations");',
    );
  mkdirSync(path.join(dir, 'dist/node'), { recursive: true });
  for (const [name, text] of files) writeFileSync(path.join(dir, 'dist/node', name), text);
  mkdirSync(path.join(dir, 'admin-qwik/dist'), { recursive: true });
  writeFileSync(
    path.join(dir, 'admin-qwik/dist/index.html'),
    `<!doctype html><title>edge-cms ${opts.version}</title>\n`,
  );
  for (const d of ['sqlite', 'mysql', 'postgres'])
    cpSync(path.join(REPO_ROOT, 'drizzle', d, 'migrations'), path.join(dir, 'drizzle', d, 'migrations'), {
      recursive: true,
    });
  if (opts.brokenAfterMigrating) {
    const migrations = path.join(dir, 'drizzle/sqlite/migrations');
    writeFileSync(
      path.join(migrations, '9000_fixture_probe.sql'),
      'CREATE TABLE `fixture_probe` (`id` integer PRIMARY KEY);\n',
    );
    const journal = JSON.parse(readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8')) as {
      entries: { idx: number; when: number }[];
    };
    const last = journal.entries.at(-1)!;
    journal.entries.push({
      idx: last.idx + 1,
      version: '6',
      when: last.when + 1,
      tag: '9000_fixture_probe',
      breakpoints: true,
    } as never);
    writeFileSync(path.join(migrations, 'meta/_journal.json'), JSON.stringify(journal, null, 2));
  }
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ ...pkg, version: opts.version }, null, 2)}\n`);
  cpSync(path.join(REPO_ROOT, 'package-lock.json'), path.join(dir, 'package-lock.json'));
  for (const f of NODE_RELEASE_PATHS.filter((p) => p.startsWith('scripts/')))
    cpSync(path.join(REPO_ROOT, f), path.join(dir, f), { recursive: true });
  if (opts.withNodeModules) symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
}

export interface SupervisorProcess {
  child: import('node:child_process').ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/**
 * The supervisor in INSTALL: `scripts/supervisor.ts` directly, or
 * `scripts/start.ts` (what `npm start` runs; in an unpacked release, with no
 * sources to build, it starts the supervisor).
 */
export async function startSupervisor(
  installDir: string,
  env: Record<string, string>,
  entry = 'scripts/supervisor.ts',
): Promise<SupervisorProcess> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [path.join(installDir, entry)], {
    cwd: installDir,
    // A supervised server is a production one: it will not start without PUBLIC_URL.
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://cms.test',
      CMS_STOP_GRACE_MS: '5000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Polls until `probe` returns a value other than undefined (or throws after timeoutMs). */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

/** The version the server on `baseUrl` reports, or undefined while none answers. */
export async function runningVersion(baseUrl: string): Promise<string | undefined> {
  try {
    const r = await fetch(`${baseUrl}/v1/system/version`, { signal: AbortSignal.timeout(2_000) });
    return r.status === 200 ? ((await r.json()) as { version: string }).version : undefined;
  } catch {
    return undefined;
  }
}

export interface SiteServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Served instead of the file of that name (attacks). */
  overrides: Map<string, Buffer>;
  /** Holds the next response for `name` open after its first KiB; resolves when a client is that far. */
  stall(name: string): Promise<void>;
  /** Ends every connection (and with it a stalled response). */
  drop(): void;
  close(): Promise<void>;
}

/** A release site (feed.json, manifests, tarballs) served as static files on 127.0.0.1, as any web server would. */
export async function serveSite(dir: string): Promise<SiteServer> {
  const { createServer } = await import('node:http');
  const { existsSync } = await import('node:fs');
  const overrides = new Map<string, Buffer>();
  let stall: { name: string; reached: () => void } | null = null;
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    const file = path.join(dir, name);
    const bytes =
      overrides.get(name) ??
      (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) && existsSync(file) ? readFileSync(file) : null);
    if (!bytes) return void res.writeHead(404).end();
    if (stall?.name === name) {
      res.writeHead(200, { 'content-length': bytes.length });
      res.write(bytes.subarray(0, 1024));
      stall.reached();
      stall = null;
      return;
    }
    res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`,
    overrides,
    stall: (name) => new Promise<void>((reached) => (stall = { name, reached })),
    drop: () => server.closeAllConnections(),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
