import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseStorageUrl } from '../../worker/src/adapters/blob/storage-url.js';
import { ROUTES } from '../../worker/src/app/services.js';
import { parseSettings } from '../../worker/src/config/settings.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * Docker is not on this machine, so the Dockerfile and compose.yaml are
 * checked by reading them against what they refer to: package scripts,
 * files in the repository, what `npm run build` produces, the routes, the
 * settings the server reads.
 */
interface Instruction {
  op: string;
  args: string;
  stage: string;
}

/** The Dockerfile as instructions (continuations joined, comments dropped), each with its stage name. */
function dockerfile(): Instruction[] {
  const text = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const logical = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let stage = '';
  return logical.map((line) => {
    const [, op, args] = /^([A-Z]+)\s+(.*)$/.exec(line) ?? [];
    if (!op) throw new Error(`not an instruction: ${line}`);
    if (op === 'FROM') stage = /\bAS\s+(\S+)/i.exec(args!)?.[1] ?? '';
    return { op, args: args!.replace(/\s+/g, ' '), stage };
  });
}

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const steps = dockerfile();
const stages = [...new Set(steps.filter((s) => s.op === 'FROM').map((s) => s.stage))];
const runtime = steps.filter((s) => s.stage === stages.at(-1));
const build = steps.filter((s) => s.stage === 'build');
const ignored = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const isIgnored = (p: string) =>
  ignored.some((pat) => p === pat || p.startsWith(`${pat}/`) || (pat.startsWith('*.') && p.endsWith(pat.slice(1))));
/** `COPY [--from=x] a b dest` → { from, sources, dest } */
const copyOf = (s: Instruction) => {
  const words = s.args.split(' ');
  const from = /^--from=(\S+)$/.exec(words[0]!)?.[1] ?? null;
  const rest = from ? words.slice(1) : words;
  return { from, sources: rest.slice(0, -1), dest: rest.at(-1)! };
};
const json = (args: string) => JSON.parse(args) as string[];
/** ENV a=b c=d (one instruction) as an object. */
const envOf = (list: Instruction[]) =>
  Object.fromEntries(
    list
      .filter((s) => s.op === 'ENV')
      .flatMap((s) => [...s.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
  );

/** Names the Node server reads: the settings schema, and what entry.node.ts reads itself. */
function settingNames(): Set<string> {
  const settings = readFileSync(path.join(REPO_ROOT, 'worker/src/config/settings.ts'), 'utf8');
  const schema = settings.slice(
    settings.indexOf('const RawSettingsSchema'),
    settings.indexOf('\n});', settings.indexOf('const RawSettingsSchema')),
  );
  const names = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
  const entry = readFileSync(path.join(REPO_ROOT, 'worker/src/entry.node.ts'), 'utf8');
  names.push(...[...entry.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!), 'NODE_ENV');
  expect(names).toContain('DATABASE_URL');
  return new Set(names);
}

describe('Dockerfile', () => {
  it('is multi-stage: a build stage, then a runtime stage with production dependencies only', () => {
    expect(stages).toEqual(['build', 'runtime']);
    expect(build.some((s) => s.op === 'RUN' && /\bnpm ci\b/.test(s.args) && !s.args.includes('--omit=dev'))).toBe(true);
    const installs = runtime.filter((s) => s.op === 'RUN' && /\bnpm (ci|install)\b/.test(s.args));
    expect(installs.map((s) => s.args)).toEqual([expect.stringContaining('npm ci --omit=dev')]);
  });

  it('runs only npm scripts that package.json has, after copying the lock file', () => {
    for (const stage of [build, runtime]) {
      const runs = stage.filter((s) => s.op === 'RUN');
      for (const r of runs) {
        for (const m of r.args.matchAll(/\bnpm run (\S+)/g)) expect(pkg.scripts, r.args).toHaveProperty(m[1]!);
        if (/\bnpm ci\b/.test(r.args)) {
          const before = stage.slice(0, stage.indexOf(r)).filter((s) => s.op === 'COPY' && !copyOf(s).from);
          expect(before.flatMap((s) => copyOf(s).sources)).toEqual(
            expect.arrayContaining(['package.json', 'package-lock.json']),
          );
        }
      }
    }
  });

  it('copies from the build context only files that exist and that .dockerignore lets through', () => {
    const copies = steps.filter((s) => s.op === 'COPY' && !copyOf(s).from).flatMap((s) => copyOf(s).sources);
    expect(copies.length).toBeGreaterThan(3);
    for (const src of copies) {
      expect(existsSync(path.join(REPO_ROOT, src)), src).toBe(true);
      expect(isIgnored(src), `${src} is excluded by .dockerignore`).toBe(false);
    }
    // …and keeps out what must never be in an image
    for (const p of ['node_modules', 'data', 'releases', '.env', 'release-key-1.pem', '.git'])
      expect(isIgnored(p), p).toBe(true);
  });

  it('takes from the build stage what a Node release carries (scripts/lib/release-artifact.ts), all of it made by `npm run build` or copied in', async () => {
    const { NODE_RELEASE_PATHS } = await import('../../scripts/lib/release-artifact.ts');
    const fromBuild = runtime
      .filter((s) => s.op === 'COPY' && copyOf(s).from === 'build')
      .flatMap((s) => copyOf(s).sources.map((p) => p.replace(/^\/src\//, '')));
    const built = ['dist/node', 'admin-qwik/dist']; // scripts/build.ts: build-node.ts and build-admin.ts
    expect(NODE_RELEASE_PATHS).toEqual(expect.arrayContaining(built));
    const copiedIntoBuild = build.filter((s) => s.op === 'COPY').flatMap((s) => copyOf(s).sources);
    for (const p of fromBuild) {
      const made = built.includes(p) || copiedIntoBuild.some((c) => p === c || p.startsWith(`${c}/`));
      expect(made, `${p} is neither built nor copied into the build stage`).toBe(true);
      if (!built.includes(p)) expect(existsSync(path.join(REPO_ROOT, p)), p).toBe(true);
    }
    expect(fromBuild).toEqual(
      expect.arrayContaining([
        ...built,
        'drizzle/sqlite/migrations',
        'drizzle/mysql/migrations',
        'drizzle/postgres/migrations',
      ]),
    );
    const buildScript = pkg.scripts.build!;
    expect(buildScript).toBe('node scripts/build.ts');
    expect(readFileSync(path.join(REPO_ROOT, 'scripts/build-node.ts'), 'utf8')).toContain("'dist/node/server.mjs'");
  });

  it('starts the bundle it copied, as a user that is not root', () => {
    const cmd = json(runtime.find((s) => s.op === 'CMD')!.args);
    expect(cmd).toEqual(['node', 'dist/node/server.mjs']);
    const workdir = runtime.filter((s) => s.op === 'WORKDIR').at(-1)!.args;
    const bundleDir = runtime
      .filter((s) => s.op === 'COPY' && copyOf(s).sources.includes('/src/dist/node'))
      .map((s) => path.posix.resolve(workdir, copyOf(s).dest));
    expect(bundleDir).toEqual([path.posix.join(workdir, 'dist/node')]);
    const users = runtime.filter((s) => s.op === 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0', '0:0']).not.toContain(users.at(-1)!.args.trim());
    expect(runtime.indexOf(users.at(-1)!)).toBeLessThan(runtime.findIndex((s) => s.op === 'CMD'));
  });

  it('checks health on /readyz, a public route the server has', () => {
    const hc = runtime.find((s) => s.op === 'HEALTHCHECK')!.args;
    const route = /(\/[a-z]+)'\)/.exec(hc)?.[1];
    expect(route).toBe('/readyz');
    expect(ROUTES.find((r) => r.path === route)).toMatchObject({ method: 'get', allow: 'public' });
  });

  it('keeps data and uploads on volumes, where its settings point, and the settings parse', () => {
    const env = envOf(runtime);
    const volumes = json(runtime.find((s) => s.op === 'VOLUME')!.args);
    const names = settingNames();
    for (const k of Object.keys(env)) expect(names.has(k), `${k} is not a setting the server reads`).toBe(true);
    const settings = parseSettings(env, 'node');
    expect(volumes).toContain(path.posix.dirname(settings.databaseUrl.slice('sqlite:'.length)));
    expect(volumes).toContain(settings.storageUrl.slice('file:'.length));
    expect(volumes.some((v) => env.CMS_RELEASES_DIR!.startsWith(`${v}/`))).toBe(true); // the update state is written there
    expect(settings.port).toBe(Number(json(`[${runtime.find((s) => s.op === 'EXPOSE')!.args}]`)[0]));
  });
});

describe('compose.yaml', () => {
  const compose = parseYaml(readFileSync(path.join(REPO_ROOT, 'compose.yaml'), 'utf8')) as {
    services: Record<
      string,
      {
        build?: { context: string };
        image?: string;
        environment?: Record<string, string>;
        entrypoint?: string[];
        depends_on?: Record<string, unknown>;
        volumes?: string[];
      }
    >;
  };
  const cms = compose.services.cms!;
  /** ${NAME:-default} → default, as Compose does with NAME unset. */
  const resolve = (v: string) => v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

  it('builds this Dockerfile and sets only settings the server reads', () => {
    expect(cms.build?.context).toBe('.');
    const names = settingNames();
    for (const k of Object.keys(cms.environment!))
      expect(names.has(k), `${k} is not in worker/src/config/settings.ts`).toBe(true);
  });

  it('wires DATABASE_URL to the PostgreSQL service and STORAGE_URL to the S3 service and its bucket, and they parse', () => {
    const env = Object.fromEntries(Object.entries(cms.environment!).map(([k, v]) => [k, resolve(String(v))]));
    const settings = parseSettings(env, 'node');
    const db = new URL(settings.databaseUrl);
    expect(db.protocol).toBe('postgres:');
    const pg = compose.services[db.hostname]!;
    expect(pg.image).toMatch(/^postgres:/);
    expect({ user: db.username, password: db.password, db: db.pathname.slice(1) }).toEqual({
      user: pg.environment!.POSTGRES_USER,
      password: resolve(pg.environment!.POSTGRES_PASSWORD!),
      db: pg.environment!.POSTGRES_DB,
    });
    const storage = parseStorageUrl(settings.storageUrl, {
      accessKeyId: settings.s3AccessKeyId,
      secretAccessKey: settings.s3SecretAccessKey,
    });
    if (storage.kind !== 's3') throw new Error('compose should use the S3 store');
    const s3 = compose.services[new URL(storage.endpoint).hostname]!;
    expect(s3.image).toMatch(/^minio\//);
    expect([storage.accessKeyId, storage.secretAccessKey]).toEqual([
      resolve(s3.environment!.MINIO_ROOT_USER!),
      resolve(s3.environment!.MINIO_ROOT_PASSWORD!),
    ]);
    const bucketJob = Object.values(compose.services).find((s) => s.entrypoint?.join(' ').includes('mc mb'))!;
    expect(bucketJob.entrypoint!.join(' ')).toContain(`local/${storage.bucket}`);
    expect(Object.keys(cms.depends_on!)).toEqual(expect.arrayContaining([db.hostname]));
  });

  it('mounts volumes where the image keeps data and uploads', () => {
    const volumes = json(runtime.find((s) => s.op === 'VOLUME')!.args);
    expect(cms.volumes!.map((v) => v.split(':')[1])).toEqual(volumes);
  });
});
