import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rules of docs/architecture.md#rule-1, checked on every run so they cannot rot:
 * http → core → ports ← adapters; only wiring/ imports adapters; only config/
 * and entry.* read the environment.
 */
const SRC = path.resolve(import.meta.dirname, '../../worker/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

function importsOf(code: string): string[] {
  return [...code.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The top-level area of a file or of a resolved relative import: 'core', 'http', 'entry', … */
function areaOf(absPath: string): string {
  const rel = path.relative(SRC, absPath).split(path.sep);
  if (rel.length === 1) return rel[0]!.startsWith('entry.') ? 'entry' : rel[0]!;
  return rel[0] === 'core' && rel[1] === 'domain' ? 'core/domain' : rel[0]!;
}

type Rule = { internal: string[]; external: RegExp };
const NONE = /^$/;
const RULES: Record<string, Rule> = {
  contract: { internal: ['contract'], external: /^zod$/ },
  'core/domain': { internal: ['contract', 'core/domain'], external: NONE },
  // markdown-it and htmlparser2: pure text libraries behind the one renderer (core/content/render.ts).
  core: { internal: ['contract', 'ports', 'core', 'core/domain'], external: /^(zod|markdown-it|htmlparser2)$/ },
  ports: { internal: ['contract', 'ports', 'core/domain'], external: NONE },
  adapters: { internal: ['contract', 'ports', 'core/domain', 'adapters'], external: /./ },
  http: {
    internal: ['contract', 'core', 'core/domain', 'ports', 'config', 'http'],
    external: /^(hono|hono\/.+|@hono\/zod-validator|zod)$/,
  },
  config: { internal: ['contract', 'config'], external: /^(zod|node:.+)$/ },
  wiring: {
    internal: ['contract', 'core', 'core/domain', 'ports', 'adapters', 'config', 'http', 'wiring'],
    external: /^node:/,
  },
  entry: { internal: ['config', 'http', 'wiring', 'adapters', 'ports', 'contract', 'core/domain'], external: /./ },
};

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    if (file.endsWith('.d.ts')) continue;
    const from = areaOf(file);
    const rule = RULES[from];
    const name = path.relative(SRC, file);
    if (!rule) {
      found.push(`${name}: lies outside the known areas (${Object.keys(RULES).join(', ')})`);
      continue;
    }
    const code = readFileSync(file, 'utf8');
    for (const spec of importsOf(code)) {
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        if (!target.startsWith(SRC)) {
          if (!/package\.json$/.test(target)) found.push(`${name}: imports ${spec} from outside worker/src`);
          continue;
        }
        const to = areaOf(target);
        if (!rule.internal.includes(to)) found.push(`${name} (${from}) may not import ${to}: ${spec}`);
      } else if (!rule.external.test(spec)) {
        found.push(`${name} (${from}) may not import the package ${spec}`);
      }
    }
    if (from !== 'config' && from !== 'entry' && /process\.env|import\.meta\.env/.test(code)) {
      found.push(`${name}: reads the environment; only config/ and entry.* may`);
    }
  }
  return found;
}

describe('architecture', () => {
  it('keeps the dependency direction of docs/architecture.md#rule-1 and reads env only in config/ and entry.*', () => {
    expect(violations()).toEqual([]);
  });

  it('the import scanner sees every import form (so the check above can fail)', () => {
    const code = `import a from './a.js';\nimport { b } from "hono";\nexport * from '../c.js';\nconst d = await import('node:fs');\nimport './side.js';`;
    expect(importsOf(code)).toEqual(
      ['./a.js', 'hono', '../c.js', './side.js', 'node:fs'].sort((x, y) => code.indexOf(x) - code.indexOf(y)),
    );
  });
});
