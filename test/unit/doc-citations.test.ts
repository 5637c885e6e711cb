import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The repository stands alone (docs/architecture.md#rule-8): every document
 * a comment or a test names exists here, and so does the part of it they
 * point at, whether an anchor (`docs/api.md#roles`, a heading's slug or an
 * `<a id>`) or a quoted heading (`docs/releases.md, "The supervisor"`). A
 * house rule is cited by its anchor (`docs/architecture.md#rule-6`), never
 * by a bare number no reader could follow. The same holds for links between
 * the Markdown files themselves, and for the repository paths they name
 * (`worker/src/…`, `test/…`): a file that moves takes its docs along. (The test of the checks below writes its
 * made-up names with `·` for the dot, so that this file cites nothing
 * missing itself.)
 */
const SOURCE_DIRS = ['worker/src', 'admin-qwik/src', 'admin-qwik/tools', 'scripts', 'test'];
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
// Installed, built or generated: not the repository's own text.
const SKIP = new Set(['node_modules', 'dist', 'fixtures', 'tmp', 'server']);
// What `npm start` and the tools leave at the top of a checkout.
const SKIP_AT_ROOT = new Set(['data', 'releases', 'coverage']);

function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name) || e.name.startsWith('.') || (dir === REPO_ROOT && SKIP_AT_ROOT.has(e.name))) return [];
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p, keep) : keep(e.name) ? [p] : [];
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): { anchors: Set<string>; headings: string[] } {
  const anchors = new Set<string>();
  const headings: string[] = [];
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading) {
      const text = heading.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
      headings.push(text);
      const base = text
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return { anchors, headings };
}

/** The documents of the repository by path from its root. */
type Docs = Map<string, string>;

/** A cited name as the repository holds it: a path from the citing file or the root, or a unique-enough bare name. */
function resolve(name: string, from: string, docs: Docs): string | undefined {
  const candidates = name.includes('/')
    ? [path.join(path.dirname(from), name), name]
    : [name, `docs/${name}`, ...[...docs.keys()].filter((d) => path.basename(d) === name)];
  return candidates.map((c) => path.normalize(c)).find((c) => docs.has(c));
}

// A file name ending in .md, not part of a longer path or URL we cannot follow; an optional anchor; an optional quoted heading.
const CITATION = /(?<![\w./:-])((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w.-]+\.md)(#[\w-]+)?(?:,?\s+"([^"\n]+)")?/g;
const BARE_RULE = /\brule \d+\b/gi;

function citationProblems(text: string, from: string, docs: Docs): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(CITATION)) {
    const [, name, anchor, heading] = m;
    const line = text.slice(0, m.index).split('\n').length;
    const where = `${from}:${line}`;
    const doc = resolve(name!, from, docs);
    if (!doc) {
      problems.push(`${where} names ${name}, which the repository does not hold`);
      continue;
    }
    const { anchors, headings } = anchorsOf(docs.get(doc)!);
    if (anchor && !anchors.has(anchor.slice(1))) problems.push(`${where}: ${doc} has no anchor ${anchor}`);
    const lower = heading?.toLowerCase();
    if (lower && !headings.some((h) => h.toLowerCase().startsWith(lower)))
      problems.push(`${where}: ${doc} has no heading "${heading}"`);
  }
  for (const m of text.matchAll(BARE_RULE)) {
    const line = text.slice(0, m.index).split('\n').length;
    problems.push(`${from}:${line} cites "${m[0]}": link the rule's anchor in docs/architecture.md instead`);
  }
  return problems;
}

/** Markdown links to other Markdown files, resolved from the linking file: `[the roles](api.md#roles)` in docs/. */
function linkProblems(markdown: string, from: string, docs: Docs): string[] {
  const problems: string[] = [];
  for (const m of markdown.matchAll(/\]\(((?!https?:)[^)#\s]*\.md)(#[^)\s]+)?\)/g)) {
    const target = path.normalize(path.join(path.dirname(from), m[1]!));
    if (!docs.has(target)) problems.push(`${from} links to ${m[1]}, which does not exist`);
    else if (m[2] && !anchorsOf(docs.get(target)!).anchors.has(m[2].slice(1)))
      problems.push(`${from} links to ${m[1]}${m[2]}: no such anchor`);
  }
  return problems;
}

/** Repository paths a Markdown file names in code spans (`worker/src/…`, `test/…`): each must exist. */
function pathProblems(markdown: string, from: string, exists: (p: string) => boolean): string[] {
  const problems: string[] = [];
  for (const m of markdown.matchAll(/`((?:worker|test|scripts|admin-qwik|drizzle|docs)\/[\w./-]+)`/g)) {
    if (!exists(m[1]!)) problems.push(`${from} names ${m[1]}, which does not exist`);
  }
  return problems;
}

const rel = (p: string) => path.relative(REPO_ROOT, p);
const docs: Docs = new Map(
  walk(REPO_ROOT, (n) => n.endsWith('.md')).map((p) => [rel(p), readFileSync(p, 'utf8')] as const),
);

describe('documents the code cites', () => {
  it('exist, with every anchor and heading cited', () => {
    const sources = SOURCE_DIRS.flatMap((dir) => walk(path.join(REPO_ROOT, dir), (n) => SOURCE.test(n)));
    expect(sources.length).toBeGreaterThan(300);
    const problems = sources.flatMap((file) => citationProblems(readFileSync(file, 'utf8'), rel(file), docs));
    expect(problems).toEqual([]);
  });

  it('link to each other by paths and anchors that exist', () => {
    expect([...docs].flatMap(([file, text]) => linkProblems(text, file, docs))).toEqual([]);
  });

  it('name only files and folders of the repository that exist', () => {
    // Build output (admin-qwik/dist, dist/…) is named before a build made it: git ignores it, so it counts.
    const ignored = (p: string) =>
      spawnSync('git', ['check-ignore', p, `${p.replace(/\/$/, '')}/`], { cwd: REPO_ROOT }).status === 0;
    const exists = (p: string) => existsSync(path.join(REPO_ROOT, p)) || ignored(p);
    expect([...docs].flatMap(([file, text]) => pathProblems(text, file, exists))).toEqual([]);
  });

  it('the checks see what they are for (so the ones above can fail)', () => {
    // Made-up names: `·` stands for the dot, `_` for the space before a number.
    const t = (text: string) => text.replaceAll('·', '.').replaceAll('rule_', 'rule ');
    const fake: Docs = new Map([
      [t('docs/guide·md'), '# Guide\n\n## Keys and rotation\n\n<a id="rule-2"></a>\n```\n# not a heading\n```\n'],
      [t('README·md'), '# Readme\n## Configuration\n'],
    ]);
    const found = citationProblems(
      t(
        [
          '// fine: docs/guide·md#keys-and-rotation, docs/guide·md#rule-2, guide·md, README·md#configuration',
          '// fine: (docs/guide·md, "Keys and rotation") and test/../docs/guide·md',
          '// missing: API·md, docs/gone·md',
          '// bad anchor: docs/guide·md#not-a-heading',
          '// bad heading: docs/guide·md, "Rotating a key"',
          '// bare: ARCHITECTURE rule_6',
        ].join('\n'),
      ),
      'worker/src/x.ts',
      fake,
    );
    expect(found).toEqual(
      [
        'worker/src/x.ts:3 names API·md, which the repository does not hold',
        'worker/src/x.ts:3 names docs/gone·md, which the repository does not hold',
        'worker/src/x.ts:4: docs/guide·md has no anchor #not-a-heading',
        'worker/src/x.ts:5: docs/guide·md has no heading "Rotating a key"',
        'worker/src/x.ts:6 cites "rule_6": link the rule\'s anchor in docs/architecture.md instead',
      ].map(t),
    );
    expect(
      pathProblems('`worker/src/here.ts` and `test/gone.ts`', 'README', (p) => p === 'worker/src/here.ts'),
    ).toEqual(['README names test/gone.ts, which does not exist']);
    expect(
      linkProblems(t('[a](guide·md#keys-and-rotation) [b](../README·md#nope) [c](gone·md)'), t('docs/x·md'), fake),
    ).toEqual(
      ['docs/x·md links to ../README·md#nope: no such anchor', 'docs/x·md links to gone·md, which does not exist'].map(
        t,
      ),
    );
  });
});
