import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseStorageUrl } from '../../worker/src/adapters/blob/storage-url.js';
import { parseSettings } from '../../worker/src/config/settings.js';
import { json, runtime, settingNames } from '../support/dockerfile.js';
import { REPO_ROOT } from '../support/paths.js';

/** compose.yaml, parsed and read against the settings, docs/configuration.md and the Dockerfile; `docker compose config` where Docker exists. */
describe('compose.yaml', () => {
  type Service = {
    build?: { context: string };
    image?: string;
    environment?: Record<string, string>;
    entrypoint?: string[];
    command?: string[];
    depends_on?: Record<string, unknown>;
    volumes?: string[];
    ports?: string[];
    configs?: { source: string; target: string }[];
  };
  const composeText = readFileSync(path.join(REPO_ROOT, 'compose.yaml'), 'utf8');
  const compose = parseYaml(composeText) as {
    services: Record<string, Service>;
    configs: Record<string, { content: string }>;
  };
  const cms = compose.services.cms!;
  /** ${NAME:-default} → default, as Compose does with NAME unset. */
  const resolve = (v: string) => v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
  const cmsEnv = Object.fromEntries(Object.entries(cms.environment!).map(([k, v]) => [k, resolve(String(v))]));
  const settings = parseSettings(cmsEnv, 'node');
  const serviceAt = (url: string) => compose.services[new URL(url).hostname]!;

  it('pins every image it pulls to an exact release tag (never latest)', () => {
    const pulled = Object.entries(compose.services).filter(([, svc]) => !svc.build);
    expect(pulled.length).toBeGreaterThanOrEqual(4);
    for (const [name, svc] of pulled) {
      expect(svc.image, name).toMatch(/^[a-z0-9./-]+:v?\d+\.\d+(\.\d+)?(-[a-z0-9.]+)?(@sha256:[0-9a-f]{64})?$/);
    }
    expect(composeText).not.toMatch(/:latest\b|minio/);
  });

  it('builds this Dockerfile and sets only settings the server reads, each one in docs/configuration.md', () => {
    expect(cms.build?.context).toBe('.');
    const names = settingNames();
    const doc = readFileSync(path.join(REPO_ROOT, 'docs/configuration.md'), 'utf8');
    const table = doc.slice(0, doc.indexOf('## Logs'));
    for (const k of Object.keys(cms.environment!)) {
      expect(names.has(k), `${k} is not in worker/src/config/settings.ts`).toBe(true);
      expect(table, `${k} is not in docs/configuration.md`).toMatch(new RegExp(`^\\|[^\\n]*\`${k}\``, 'm'));
    }
  });

  it('wires DATABASE_URL to the PostgreSQL service, and it parses', () => {
    const db = new URL(settings.databaseUrl);
    expect(db.protocol).toBe('postgres:');
    const pg = compose.services[db.hostname]!;
    expect(pg.image).toMatch(/^postgres:/);
    expect({ user: db.username, password: db.password, db: db.pathname.slice(1) }).toEqual({
      user: pg.environment!.POSTGRES_USER,
      password: resolve(pg.environment!.POSTGRES_PASSWORD!),
      db: pg.environment!.POSTGRES_DB,
    });
    expect(Object.keys(cms.depends_on!)).toContain(db.hostname);
  });

  it('wires the S3 store (by the AWS names) to SeaweedFS: its S3 port, one identity with the same keys, the bucket made before the CMS starts', () => {
    const storage = parseStorageUrl(settings.storageUrl, {
      accessKeyId: settings.s3AccessKeyId,
      secretAccessKey: settings.s3SecretAccessKey,
      endpoint: settings.s3Endpoint,
      region: settings.s3Region,
    });
    if (storage.kind !== 's3') throw new Error('compose should use the S3 store');
    const s3 = serviceAt(storage.endpoint);
    expect(s3.image).toMatch(/^chrislusf\/seaweedfs:/);
    expect(s3.command).toEqual(expect.arrayContaining(['server', '-s3', `-s3.port=${new URL(storage.endpoint).port}`]));
    const configFlag = s3.command!.find((c) => c.startsWith('-s3.config='))!.slice('-s3.config='.length);
    const mounted = s3.configs!.find((c) => c.target === configFlag)!;
    const identities = JSON.parse(resolve(compose.configs[mounted.source]!.content)).identities as {
      credentials: { accessKey: string; secretKey: string }[];
      actions: string[];
    }[];
    expect(identities).toHaveLength(1);
    expect(identities[0]!.credentials).toEqual([
      { accessKey: storage.accessKeyId, secretKey: storage.secretAccessKey },
    ]);
    expect(identities[0]!.actions).toEqual(expect.arrayContaining(['Read', 'Write', 'List']));
    const [jobName, job] = Object.entries(compose.services).find(([, svc]) =>
      svc.entrypoint?.join(' ').includes('s3.bucket.create'),
    )!;
    expect(job.entrypoint!.join(' ')).toContain(`-name ${storage.bucket}`);
    expect(cms.depends_on![jobName]).toEqual({ condition: 'service_completed_successfully' });
  });

  it('sends mail to Mailpit and publishes its web UI', () => {
    expect(settings.smtpUrl).toBeDefined();
    const smtp = new URL(settings.smtpUrl!);
    const mailpit = serviceAt(settings.smtpUrl!);
    expect(mailpit.image).toMatch(/^axllent\/mailpit:/);
    expect(mailpit.environment!.MP_SMTP_BIND_ADDR).toBe(`0.0.0.0:${smtp.port}`);
    const ui = mailpit.environment!.MP_UI_BIND_ADDR!.split(':').at(-1);
    expect(mailpit.ports).toContain(`${ui}:${ui}`);
    expect(Object.keys(cms.depends_on!)).toContain(smtp.hostname);
  });

  it('mounts volumes where the image keeps data and uploads', () => {
    const volumes = json(runtime.find((s) => s.op === 'VOLUME')!.args);
    expect(cms.volumes!.map((v) => v.split(':')[1])).toEqual(volumes);
  });

  // Docker is not on the build machine; where it is, Compose itself must accept the file.
  const docker = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  it.runIf(docker.status === 0)('is valid to `docker compose config`', () => {
    const checked = spawnSync('docker', ['compose', '-f', 'compose.yaml', 'config', '--quiet'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(checked.status, checked.stderr).toBe(0);
  });
});
