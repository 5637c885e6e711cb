import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from './paths.js';

/**
 * Docker is not on this machine, so the Dockerfile and compose.yaml are
 * checked by reading them against what they refer to: package scripts,
 * files in the repository, what `npm run build` produces, the routes, the
 * settings the server reads.
 */
export interface Instruction {
  op: string;
  args: string;
  stage: string;
}

/** The Dockerfile as instructions (continuations joined, comments dropped), each with its stage name. */
export function dockerfile(): Instruction[] {
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

export const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
export const steps = dockerfile();
export const stages = [...new Set(steps.filter((s) => s.op === 'FROM').map((s) => s.stage))];
export const runtime = steps.filter((s) => s.stage === stages.at(-1));
export const build = steps.filter((s) => s.stage === 'build');
export const ignored = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
export const isIgnored = (p: string) =>
  ignored.some((pat) => p === pat || p.startsWith(`${pat}/`) || (pat.startsWith('*.') && p.endsWith(pat.slice(1))));
/** `COPY [--from=x] a b dest` → { from, sources, dest } */
export const copyOf = (s: Instruction) => {
  const words = s.args.split(' ');
  const from = /^--from=(\S+)$/.exec(words[0]!)?.[1] ?? null;
  const rest = from ? words.slice(1) : words;
  return { from, sources: rest.slice(0, -1), dest: rest.at(-1)! };
};
export const json = (args: string) => JSON.parse(args) as string[];
/** ENV a=b c=d (one instruction) as an object. */
export const envOf = (list: Instruction[]) =>
  Object.fromEntries(
    list
      .filter((s) => s.op === 'ENV')
      .flatMap((s) => [...s.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
  );

/** Names the Node server reads: the settings schema, and what entry.node.ts reads itself. */
export function settingNames(): Set<string> {
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
