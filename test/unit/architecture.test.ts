import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/**
 * The import rules themselves are dependency-cruiser's (.dependency-cruiser.mjs),
 * run over worker/src and admin-qwik/src by `npm test`. What stays here: that
 * those rules do fire (on a small tree that breaks each of them once), and the
 * one rule that is not about imports.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'worker/src');
const FIXTURE = path.join(import.meta.dirname, 'fixtures/architecture');
const CONFIG = path.join(ROOT, '.dependency-cruiser.mjs');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('architecture', () => {
  it('the dependency rules fire on a tree that breaks each of them', async () => {
    const { default: config } = (await import(CONFIG)) as { default: IConfiguration };
    const result = await cruise(['worker/src', 'admin-qwik/src'], {
      ...config.options,
      tsConfig: undefined,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      baseDir: FIXTURE,
    });
    if (typeof result.output === 'string') throw new Error('expected the cruise result, got a report');
    const found = result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      'admin-imports-no-server-code: admin-qwik/src/uses-an-adapter.ts → worker/src/adapters/codec.ts',
      'code-imports-no-test: worker/src/core/imports-a-test.ts → test/support/flows.ts',
      'feature-direction-accounts: worker/src/features/accounts/imports-upwards.ts → worker/src/features/articles/index.ts',
      'feature-entities-are-types: worker/src/features/tags/rows-as-values.ts → worker/src/adapters/db/rows.ts',
      'feature-through-its-index: worker/src/features/articles/past-the-door.ts → worker/src/features/accounts/accounts.service.ts',
      'no-circular: worker/src/core/cycle-a.ts → worker/src/core/cycle-b.ts',
      'nothing-imports-the-root: worker/src/features/media/imports-the-root.ts → worker/src/app/services.ts',
      'platform-core-layers: worker/src/core/imports-an-adapter.ts → worker/src/adapters/codec.ts',
      'platform-knows-no-feature: worker/src/http/knows-a-feature.ts → worker/src/features/accounts/accounts.service.ts',
      'tests-live-under-test: worker/src/features/tags/tags-api.contract.ts → worker/src/features/tags/tags-api.contract.ts',
    ]);
  });

  it('reads the environment only in config/ and entry.*', () => {
    const readers = sourceFiles(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((name) => !/^(config\/|entry\.)/.test(name))
      .filter((name) => /process\.env|import\.meta\.env/.test(readFileSync(path.join(SRC, name), 'utf8')));
    expect(readers).toEqual([]);
  });
});
