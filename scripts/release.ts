import { spawnSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MANIFEST_SCHEMA, type Manifest, semverString } from '../worker/src/core/releases/manifest.ts';
import { PINNED_RELEASE_KEYS } from '../worker/src/core/releases/pinned-keys.ts';
import { writeNodeTarball } from './lib/release-artifact.ts';
import { highestSequence, MANIFEST_SUFFIX, writeFeed } from './lib/release-feed.ts';
import {
  generateKeyFile,
  loadPrivateKey,
  loadPrivateKeyFromEnv,
  publicKeyInfo,
  signManifest,
} from './lib/release-keys.ts';

/**
 * `npm run release -- <command>`: signed Node releases and their feed
 * (docs/releases.md).
 *
 *   keygen --out FILE
 *       a new Ed25519 key: the private half to FILE (PKCS#8 PEM, mode 0600,
 *       refused inside the repository, never overwritten); prints the public
 *       half as a pinned-keys.ts entry.
 *   pubkey --key FILE | --key-env NAME
 *       prints the public half of an existing private key.
 *   build (--key FILE[,FILE2] | --key-env NAME[,NAME2]) --out DIR --min-from VERSION
 *         [--notes TEXT | --notes-file FILE] [--expires-days 90]
 *         [--sequence N] [--no-build] [--no-feed] [--replace] [--from DIR]
 *       builds (npm run build; --no-build uses what is built), packs
 *       edge-cms-VERSION-node.tar.gz into DIR, writes its signed manifest
 *       DIR/edge-cms-VERSION-node.manifest.json and updates DIR/feed.json.
 *       The sequence defaults to max(the feed's highest + 1, Unix seconds).
 *       A version already in DIR is refused unless --replace. A dirty git
 *       tree is reported: the tarball packs the working tree. --from DIR
 *       packs an already built tree (an unpacked release, a test fixture)
 *       instead of this checkout, with DIR/package.json's version.
 *       --key-env reads each private key (PKCS#8 PEM) from an environment
 *       variable instead of a file (CI secrets); nothing is written to disk.
 *       A signing key that this checkout's release-keys.json does not pin as
 *       active is reported: installations built from it would refuse it.
 *   feed --dir DIR
 *       rewrites DIR/feed.json from DIR/*.manifest.json.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    key: { type: 'string' },
    'key-env': { type: 'string' },
    dir: { type: 'string' },
    'min-from': { type: 'string' },
    notes: { type: 'string' },
    'notes-file': { type: 'string' },
    'expires-days': { type: 'string', default: '90' },
    sequence: { type: 'string' },
    version: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'no-feed': { type: 'boolean', default: false },
    replace: { type: 'boolean', default: false },
    from: { type: 'string' },
    'force-version': { type: 'boolean', default: false }, // tests: label a build with another version
    now: { type: 'string' }, // tests: a fixed issue time
  },
});

type StringOption = {
  [K in keyof typeof values]-?: (typeof values)[K] extends boolean ? never : K;
}[keyof typeof values];

function need(name: StringOption): string {
  const v = values[name];
  if (v === undefined || v === '') return fail(`--${name} is required`);
  return v;
}

function fail(message: string): never {
  console.error(`release: ${message}`);
  process.exit(2);
}

const isSemver = (v: string): boolean => semverString.safeParse(v).success;

async function main(): Promise<void> {
  const command = positionals[0];
  switch (command) {
    case 'keygen': {
      const out = need('out');
      const info = generateKeyFile(out, root);
      console.log(`Private key written to ${path.resolve(out)} (mode 0600). Keep it out of the repository.`);
      console.log(`Pin the public key in worker/src/core/releases/release-keys.json ("keys"):`);
      console.log(
        `  ${JSON.stringify({ ...info, status: 'active', note: `made ${new Date().toISOString().slice(0, 10)}` })}`,
      );
      return;
    }
    case 'pubkey': {
      const [key] = signingKeys();
      const info = publicKeyInfo(createPublicKey(key!));
      console.log(JSON.stringify(info));
      return;
    }
    case 'build':
      return build();
    case 'feed': {
      const feed = writeFeed(path.resolve(need('dir')));
      console.log(
        `feed.json: ${feed.releases.length} release(s), newest ${feed.releases[0]?.signed.version ?? 'none'}`,
      );
      return;
    }
    default:
      fail(`unknown command ${command ?? '(none)'}; use keygen, pubkey, build or feed`);
  }
}

/** The private keys named by --key (files) or --key-env (environment variables). */
function signingKeys() {
  const names = values['key-env'];
  if (names) return names.split(',').map((name) => loadPrivateKeyFromEnv(name, process.env));
  return need('key')
    .split(',')
    .map((k) => loadPrivateKey(k, root));
}

async function build(): Promise<void> {
  const keys = signingKeys();
  for (const key of keys) {
    const { keyId } = publicKeyInfo(createPublicKey(key));
    if (!PINNED_RELEASE_KEYS.some((k) => k.keyId === keyId && k.status === 'active'))
      console.warn(
        `release: key ${keyId} is not pinned as active in release-keys.json; builds of this checkout refuse it`,
      );
  }
  const out = path.resolve(need('out'));
  const minFrom = need('min-from');
  const source = values.from ? path.resolve(values.from) : root;
  const pkg: { version: string } = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
  const version = values.version ?? pkg.version;
  if (!isSemver(version)) fail(`version ${version} is not a semantic version`);
  if (version !== pkg.version && !values['force-version']) {
    fail(
      `--version ${version} differs from package.json's ${pkg.version}, which the built server reports; bump package.json instead`,
    );
  }
  if (!isSemver(minFrom)) fail(`--min-from ${minFrom} is not a semantic version`);
  const days = Number(values['expires-days']);
  if (!Number.isFinite(days) || days <= 0 || days > 3650) fail('--expires-days must be between 0 and 3650');
  const notes = values['notes-file'] ? readFileSync(values['notes-file'], 'utf8') : (values.notes ?? '');
  mkdirSync(out, { recursive: true });

  const floor = highestSequence(out) + 1;
  const now = values.now ? new Date(values.now) : new Date();
  const sequence =
    values.sequence !== undefined ? Number(values.sequence) : Math.max(floor, Math.floor(now.getTime() / 1000));
  if (!Number.isSafeInteger(sequence) || sequence < floor)
    fail(`sequence ${values.sequence} must be a whole number of at least ${floor} (sequences only grow)`);

  if (!values['no-build'] && !values.from) {
    const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.ts')], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) fail('the build failed');
  }

  const base = `edge-cms-${version}-node`;
  if (existsSync(path.join(out, `${base}${MANIFEST_SUFFIX}`)) && !values.replace) {
    fail(`${version} is already released in ${out}; bump the version or pass --replace`);
  }
  const dirty = values.from
    ? { status: 1, stdout: '' }
    : spawnSync(
        'git',
        [
          'status',
          '--porcelain',
          '--',
          'worker',
          'admin-qwik',
          'drizzle',
          'package.json',
          'package-lock.json',
          'scripts',
        ],
        { cwd: root, encoding: 'utf8' },
      );
  if (dirty.status === 0 && dirty.stdout.trim())
    console.warn('release: warning: the working tree has uncommitted changes; the tarball packs them');
  const tarball = path.join(out, `${base}.tar.gz`);
  const tmpTarball = path.join(out, `.${base}.tar.gz.tmp`);
  const artifact = writeNodeTarball(source, tmpTarball);
  renameSync(tmpTarball, tarball);
  artifact.name = path.basename(tarball);

  const issuedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const manifest: Manifest = {
    schema: MANIFEST_SCHEMA,
    product: 'edge-cms',
    target: 'node',
    version,
    sequence,
    issuedAt: issuedAt.toISOString(),
    expiresAt: new Date(issuedAt.getTime() + days * 86_400_000).toISOString(),
    minUpdateFrom: minFrom,
    notes,
    artifacts: [{ name: artifact.name, sha256: artifact.sha256, length: artifact.length }],
  };
  const envelope = signManifest(manifest, keys);
  const manifestFile = path.join(out, `${base}${MANIFEST_SUFFIX}`);
  writeFileSync(manifestFile, `${JSON.stringify(envelope, null, 2)}\n`);
  console.log(`${artifact.name}: ${artifact.length} bytes, sha256 ${artifact.sha256}`);
  console.log(
    `${path.basename(manifestFile)}: version ${version}, sequence ${sequence}, expires ${manifest.expiresAt}, signed by ${envelope.signatures.map((s) => s.keyId).join(', ')}`,
  );
  if (!values['no-feed']) {
    const feed = writeFeed(out);
    console.log(`feed.json: ${feed.releases.length} release(s)`);
  }
}

await main().catch((e: Error) => fail(e.message));
