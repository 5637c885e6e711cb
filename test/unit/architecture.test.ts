import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rules of docs/architecture.md#rule-1, checked on every run so they
 * cannot rot: http → core → ports ← adapters; only the composition root
 * (app/, wiring/, a feature's module) puts adapters and routes together;
 * only config/ and entry.* read the environment; no import cycles.
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

type Role =
  | 'contract'
  | 'core/domain'
  | 'core'
  | 'ports'
  | 'adapters'
  | 'http'
  | 'config'
  | 'module'
  | 'app'
  | 'wiring'
  | 'entry'
  | 'test';

/**
 * Inside a feature folder a file's role is its suffix; a file without one
 * is domain code (the strictest role that may hold logic), so a mislabelled
 * file fails rather than slips through.
 */
function roleInFeature(fileName: string): Role {
  if (/\.(contract|test)\.ts$/.test(fileName)) return 'test';
  if (fileName.endsWith('.schema.ts')) return 'contract';
  if (fileName.endsWith('.port.ts')) return 'ports';
  if (fileName.endsWith('.entities.ts')) return 'core/domain';
  if (/\.(repository|store)\.ts$/.test(fileName)) return 'adapters';
  if (/\.(routes|http)\.ts$/.test(fileName)) return 'http';
  if (fileName.endsWith('.feature.ts')) return 'module';
  return 'core';
}

/** The role of a file or of a resolved relative import, or undefined outside the known places. */
function roleOf(absPath: string): Role | undefined {
  const rel = path.relative(SRC, absPath).split(path.sep);
  const top = rel[0]!;
  if (rel.length === 1) return top.startsWith('entry.') ? 'entry' : undefined;
  if (top === 'features') return rel.length === 3 ? roleInFeature(rel[2]!) : undefined;
  if (top === 'core') return rel[1] === 'domain' ? 'core/domain' : 'core';
  const byFolder: Record<string, Role> = {
    contract: 'contract',
    ports: 'ports',
    adapters: 'adapters',
    http: 'http',
    config: 'config',
    app: 'app',
    wiring: 'wiring',
  };
  return byFolder[top];
}

type Rule = { internal: Role[]; external: RegExp };
const NONE = /^$/;
const HONO = /^(hono|hono\/.+|@hono\/zod-validator|zod)$/;
const RULES: Record<Role, Rule> = {
  contract: { internal: ['contract'], external: /^zod$/ },
  'core/domain': { internal: ['contract', 'core/domain'], external: NONE },
  // markdown-it and htmlparser2: pure text libraries behind the one renderer (core/content/render.ts).
  core: { internal: ['contract', 'ports', 'core', 'core/domain'], external: /^(zod|markdown-it|htmlparser2)$/ },
  ports: { internal: ['contract', 'ports', 'core/domain'], external: NONE },
  adapters: { internal: ['contract', 'ports', 'core/domain', 'adapters'], external: /./ },
  http: { internal: ['contract', 'core', 'core/domain', 'ports', 'config', 'http'], external: HONO },
  config: { internal: ['contract', 'config'], external: /^(zod|node:.+)$/ },
  // A feature's module puts its own repository, service and routes together.
  module: { internal: ['contract', 'core', 'core/domain', 'ports', 'adapters', 'http', 'app'], external: NONE },
  // The composition root: services, repositories and jobs built from the feature registry.
  app: {
    internal: ['contract', 'core', 'core/domain', 'ports', 'adapters', 'http', 'config', 'module', 'app'],
    external: /^(hono|hono\/.+)$/,
  },
  wiring: {
    internal: ['contract', 'core', 'core/domain', 'ports', 'adapters', 'config', 'app', 'wiring'],
    external: /^node:/,
  },
  entry: {
    internal: ['config', 'app', 'http', 'wiring', 'adapters', 'ports', 'contract', 'core/domain'],
    external: /./,
  },
  test: {
    internal: ['contract', 'core', 'core/domain', 'ports', 'adapters', 'http', 'config', 'module', 'app', 'wiring'],
    external: /./,
  },
};

/** Relative imports resolved to files of worker/src (`.js` specifiers name `.ts` files). */
function resolveImport(from: string, spec: string): string {
  return path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    if (file.endsWith('.d.ts')) continue;
    const from = roleOf(file);
    const name = path.relative(SRC, file);
    if (!from) {
      found.push(`${name}: lies outside the known places (worker/src/<area>/… or features/<name>/<file>)`);
      continue;
    }
    const rule = RULES[from];
    const code = readFileSync(file, 'utf8');
    for (const spec of importsOf(code)) {
      if (spec.startsWith('.')) {
        const target = resolveImport(file, spec);
        if (!target.startsWith(SRC)) {
          if (from !== 'test' && !/package\.json$/.test(target)) {
            found.push(`${name}: imports ${spec} from outside worker/src`);
          }
          continue;
        }
        const to = roleOf(target);
        // The one entry that loads another: entry.boot.ts turns Node's compile cache on before
        // the server's modules are compiled, so it must run first and import the server after.
        if (name === 'entry.boot.ts' && path.relative(SRC, target) === 'entry.node.ts') continue;
        if (!to || !rule.internal.includes(to)) found.push(`${name} (${from}) may not import ${to}: ${spec}`);
      } else if (!rule.external.test(spec)) {
        found.push(`${name} (${from}) may not import the package ${spec}`);
      }
    }
    if (from !== 'config' && from !== 'entry' && from !== 'test' && /process\.env|import\.meta\.env/.test(code)) {
      found.push(`${name}: reads the environment; only config/ and entry.* may`);
    }
  }
  return found;
}

/** Every import cycle, as the files of each strongly connected component (Tarjan). */
function cyclesIn(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Type-only imports count: a cycle of types is still two files that cannot be understood apart. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolveImport(file, spec))
      .filter((target) => target.startsWith(SRC))
      .map((target) => path.relative(SRC, target));
    graph.set(path.relative(SRC, file), targets);
  }
  return graph;
}

describe('architecture', () => {
  it('keeps the dependency direction by role and reads env only in config/ and entry.*', () => {
    expect(violations()).toEqual([]);
  });

  it('has no import cycles in worker/src', () => {
    expect(cyclesIn(importGraph())).toEqual([]);
  });

  it('the cycle finder sees a cycle (so the check above can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(cyclesIn(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('reads a feature file’s role from its suffix, domain code by default', () => {
    expect(roleInFeature('sites.routes.ts')).toBe('http');
    expect(roleInFeature('sites.repository.ts')).toBe('adapters');
    expect(roleInFeature('site.schema.ts')).toBe('contract');
    expect(roleInFeature('sites.port.ts')).toBe('ports');
    expect(roleInFeature('sites.feature.ts')).toBe('module');
    expect(roleInFeature('sites-api.contract.ts')).toBe('test');
    expect(roleInFeature('xml.ts')).toBe('core');
  });

  it('the import scanner sees every import form (so the checks above can fail)', () => {
    const code = `import a from './a.js';\nimport { b } from "hono";\nexport * from '../c.js';\nconst d = await import('node:fs');\nimport './side.js';`;
    expect(importsOf(code)).toEqual(
      ['./a.js', 'hono', '../c.js', './side.js', 'node:fs'].sort((x, y) => code.indexOf(x) - code.indexOf(y)),
    );
  });
});
