import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { d1FromToml } from '../../scripts/lib/wrangler-toml.ts';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The Cloudflare conventions the deployment relies on (docs/deploy-workers.md):
 * text checks of the committed configuration; `npm test` also runs
 * `wrangler types --check` on the generated Env.
 */
const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const toml = read('wrangler.toml');
const pkg = JSON.parse(read('package.json'));
const lines = toml.split('\n');
/** The `key = value` lines of one `[table]` of wrangler.toml. */
const table = (name: string) => {
  const start = lines.indexOf(`[${name}]`);
  expect(start, `[${name}]`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('['));
  return lines.slice(start + 1, end === -1 ? undefined : end).filter((l) => /^\w+\s*=/.test(l));
};
const secretsIn = (text: string) =>
  text
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => l.slice(0, l.indexOf('=')));

describe('wrangler.toml', () => {
  it('names its schema first, so editors validate it', () => {
    expect(lines[0]).toBe('#:schema node_modules/wrangler/config-schema.json');
  });

  it('keeps Workers Logs on', () => {
    expect(table('observability')).toContain('enabled = true');
  });

  it('names the database and bucket without ids, for wrangler to provision', () => {
    expect(d1FromToml(toml)).toEqual({ name: 'edge-cms', pinned: false });
    expect(toml).not.toMatch(/^\s*database_id\s*=/m);
    expect(d1FromToml('[[d1_databases]]\nbinding = "DB"\ndatabase_name = "x"\ndatabase_id = "abc"\n[vars]\n')).toEqual({
      name: 'x',
      pinned: true,
    });
  });

  it('leaves process.env empty on Workers: settings come from the handler’s env only', () => {
    expect(toml).toMatch(/^compatibility_flags = \[.*"nodejs_compat_do_not_populate_process_env".*\]$/m);
  });
});

describe('the Worker’s secrets', () => {
  const example = secretsIn(read('.dev.vars.example'));

  it('are listed in .dev.vars.example, each described for the Deploy to Cloudflare button', () => {
    expect(example).toEqual(['JWT_SECRET', 'SMTP_URL']);
    expect(Object.keys(pkg.cloudflare.bindings).sort()).toEqual([...example].sort());
    for (const name of example) expect(pkg.cloudflare.bindings[name].description.length).toBeGreaterThan(20);
  });

  it('never include ALLOW_LOG_MAILER, which a one-click deploy would otherwise ship', () => {
    expect(read('.dev.vars.example')).not.toMatch(/^ALLOW_LOG_MAILER=/m);
    expect(toml).not.toMatch(/^ALLOW_LOG_MAILER\s*=/m);
  });
});

describe('the wrangler pin', () => {
  it('is the exact version @cloudflare/vitest-plugin depends on, and says why', () => {
    const plugin = JSON.parse(read('node_modules/@cloudflare/vitest-plugin/package.json'));
    expect(pkg.devDependencies.wrangler).toBe(plugin.dependencies.wrangler);
    expect(pkg['//'].join(' ')).toContain('@cloudflare/vitest-plugin');
  });
});
