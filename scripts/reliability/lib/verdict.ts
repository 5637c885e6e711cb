import http, { type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RawResponse } from './http.ts';

/**
 * What must never be in an answer: a 5xx, no answer at all, a stack trace, a
 * secret (the JWT key), a path of the server's files, SQL or driver detail
 * in an error, or an API error that is not the contract's body.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const STACK = /\n\s+at .+:\d+:\d+|\bat (?:async )?[\w$.<>]+ \((?:file:|node:|\/)/;
const DRIVER =
  /\b(?:SELECT\s.+\sFROM|INSERT INTO|DELETE FROM|UPDATE\s+\w+\s+SET)\b|SQLITE_|better-sqlite3|drizzle|PostgresError|ER_\w+|ECONNREFUSED|ECONNRESET|node_modules/i;
// /readyz answers 503 with its checks (as its OpenAPI entry says), not with an error body.
const API_PATH = /^\/(?:v1(?:\/|$|\?)|static\/|healthz)/;

/** The path as the server routes it (`/static/../x` is `/x`, the admin's). */
const normalized = (p: string): string => {
  try {
    return new URL(p, 'http://h').pathname;
  } catch {
    return p;
  }
};

const isText = (headers: IncomingHttpHeaders): boolean => {
  const type = String(headers['content-type'] ?? '');
  return !/^image\//.test(type);
};

export type Answer = Pick<RawResponse, 'status' | 'headers' | 'body' | 'error'>;

/** Values that must never show in an answer. */
export interface Secrets {
  secrets: string[];
  paths: string[];
}

/** What is wrong with this answer (empty: fine). */
export function problemsOf(
  res: Answer,
  { method = 'GET', path }: { method?: string; path: string },
  ctx: Secrets,
): string[] {
  if (res.status === -1) return []; // never sent (node:http refused it): not the server's doing
  const out: string[] = [];
  // Over Node's 16 KiB header limit: Node answers 431 itself and drops the
  // connection, which a client still sending its body sees as a reset.
  if (res.status === 0 && path.length > 16_000) return [];
  // A method llhttp does not know: Node's parser drops the connection unanswered.
  if (res.status === 0 && !http.METHODS.includes(method)) return [];
  if (res.status === 0) return [`no answer (${res.error})`];
  // Node's HTTP parser answers these itself, before any application code, with no body at all.
  if (nodeParserRefusal(res)) return [];
  if (res.status >= 500) out.push(`status ${res.status}`);
  if (!isText(res.headers)) return out;
  const text = res.body.toString('utf8');
  for (const secret of ctx.secrets) if (secret && text.includes(secret)) out.push('a secret in the body');
  for (const p of [...ctx.paths, REPO_ROOT]) if (p && text.includes(p)) out.push('a server file path in the body');
  if (STACK.test(text)) out.push('a stack trace in the body');
  if (res.status >= 400 && DRIVER.test(text)) out.push('SQL or driver detail in an error');
  if (res.status >= 400 && method !== 'HEAD' && API_PATH.test(normalized(path))) {
    let body: { error?: { code?: unknown; message?: unknown } } | null = null;
    try {
      body = JSON.parse(text);
    } catch {
      // checked below
    }
    const e = body?.error;
    if (!e || typeof e.code !== 'string' || typeof e.message !== 'string')
      out.push('an API error without the contract body');
  }
  return out;
}

/** 431 (headers over 16 KiB) or a bare 400 from Node's own HTTP parser: transport-level, not the app's. */
export const nodeParserRefusal = (res: Answer): boolean =>
  (res.status === 431 || res.status === 400) &&
  res.headers.connection === 'close' &&
  !res.headers['content-type'] &&
  res.body.length === 0;

/** Tallies answers and keeps the first few examples of each kind of problem. */
export interface ProblemEntry {
  label: string;
  problem: string;
  count: number;
  examples: { method: string; path: string; body: string | undefined; status: number; answer: string }[];
}

export interface TallyResult {
  requests: number;
  byStatus: Record<number, number>;
  problems: ProblemEntry[];
}

export interface Tally {
  record(
    label: string,
    req: { method: string; path: string; bodyPreview?: string },
    res: Answer,
    found: readonly string[],
  ): void;
  result(): TallyResult;
}

export function createTally(): Tally {
  const byStatus: Record<number, number> = {};
  const problems = new Map<string, ProblemEntry>();
  let requests = 0;
  return {
    record(label, req, res, found) {
      requests++;
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      for (const p of found) {
        const key = `${label} — ${p}`;
        const entry: ProblemEntry = problems.get(key) ?? { label, problem: p, count: 0, examples: [] };
        entry.count++;
        if (entry.examples.length < 3) {
          entry.examples.push({
            method: req.method,
            path: req.path.length > 200 ? `${req.path.slice(0, 200)}…` : req.path,
            body: req.bodyPreview,
            status: res.status,
            answer: res.body.toString('utf8').slice(0, 300),
          });
        }
        problems.set(key, entry);
      }
    },
    result() {
      return { requests, byStatus, problems: [...problems.values()] };
    },
  };
}

/** Runs `jobs` (functions returning promises) `concurrency` at a time. */
export async function pool(
  jobs: readonly (() => Promise<unknown>)[],
  concurrency: number,
  deadline = Infinity,
): Promise<{ skipped: number }> {
  let next = 0;
  let skipped = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      if (Date.now() > deadline) {
        skipped++;
        continue;
      }
      await job();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { skipped };
}
