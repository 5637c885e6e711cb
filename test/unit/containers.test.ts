import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../scripts/lib/supervisor/server-node-flags.ts';
import { ROUTES } from '../../worker/src/app/services.js';
import { parseSettings } from '../../worker/src/config/settings.js';
import {
  build,
  copyOf,
  envOf,
  isIgnored,
  json,
  pkg,
  runtime,
  settingNames,
  stages,
  steps,
} from '../support/dockerfile.js';
import { REPO_ROOT } from '../support/paths.js';

/** The Dockerfile, read against the package scripts, the repository, the routes and the settings (Docker is not on this machine). */
describe('Dockerfile', () => {
  it('builds on an exact Node 24 release tag', () => {
    const arg = steps.find((s) => s.op === 'ARG' && s.args.startsWith('NODE_IMAGE='))!.args;
    expect(arg).toMatch(/^NODE_IMAGE=node:24\.\d+\.\d+-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/);
    const image = '$' + '{NODE_IMAGE}';
    expect(steps.filter((s) => s.op === 'FROM').map((s) => s.args.split(' ')[0])).toEqual([image, image]);
  });

  it('is multi-stage: a build stage with every dependency, then a runtime stage that installs nothing', () => {
    expect(stages).toEqual(['build', 'runtime']);
    expect(build.some((s) => s.op === 'RUN' && /\bnpm ci\b/.test(s.args) && !s.args.includes('--omit=dev'))).toBe(true);
    expect(runtime.filter((s) => s.op === 'RUN' && /\b(npm|npx|pnpm|yarn)\b/.test(s.args))).toEqual([]);
    // The runtime's node_modules are what scripts/runtime-deps.ts copied out of the build's, and nothing else.
    const made = build.find((s) => s.op === 'RUN' && s.args.startsWith('node scripts/runtime-deps.ts '))!;
    const dir = made.args.split(' ').at(-1)!;
    const modules = runtime.filter(
      (s) => s.op === 'COPY' && copyOf(s).dest.replace(/\/$/, '').endsWith('node_modules'),
    );
    expect(modules.map((s) => copyOf(s))).toEqual([
      { from: 'build', sources: [`${dir}/node_modules`], dest: './node_modules' },
    ]);
    expect(build.indexOf(made)).toBeGreaterThan(build.findIndex((s) => /\bnpm run build\b/.test(s.args)));
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
    // (node_modules aside: the test above checks those)
    const fromBuild = runtime
      .filter((s) => s.op === 'COPY' && copyOf(s).from === 'build' && !copyOf(s).dest.endsWith('node_modules'))
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
    expect(buildScript).toBe('node scripts/require-node.mjs scripts/build.ts');
    expect(readFileSync(path.join(REPO_ROOT, 'scripts/build-node.ts'), 'utf8')).toContain("'dist/node/server.mjs'");
  });

  it('starts the bundle it copied, as a user that is not root', () => {
    const cmd = json(runtime.find((s) => s.op === 'CMD')!.args);
    // The flags for the image's Node, not for the Node running this test.
    const version = /NODE_IMAGE=node:(\d+\.\d+\.\d+)/.exec(steps.map((s) => s.args).join('\n'))![1]!;
    expect(cmd).toEqual(['node', ...serverNodeFlags(version), 'dist/node/server.mjs']);
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
    // The image runs in production: it starts only once given its PUBLIC_URL (docker run -e PUBLIC_URL=…).
    expect(() => parseSettings(env, 'node')).toThrow(/PUBLIC_URL: required in production/);
    const settings = parseSettings({ ...env, PUBLIC_URL: 'https://cms.example' }, 'node');
    expect(volumes).toContain(path.posix.dirname(settings.databaseUrl.slice('sqlite:'.length)));
    expect(volumes).toContain(settings.storageUrl.slice('file:'.length));
    expect(volumes.some((v) => env.CMS_RELEASES_DIR!.startsWith(`${v}/`))).toBe(true); // the update state is written there
    expect(settings.port).toBe(Number(json(`[${runtime.find((s) => s.op === 'EXPOSE')!.args}]`)[0]));
  });
});
