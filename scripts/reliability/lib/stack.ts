import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup, type StartedServer, startServer, trackTempDir } from '../../bench/lib/processes.ts';
import { buildNode, NODE_BUNDLE } from '../../build-node.ts';
import { must } from './http.ts';

/**
 * The servers the reliability runs talk to: the real Node bundle (what
 * `npm start` runs) on a temp directory, with SQLite or a fresh PostgreSQL
 * database of its own, and the first owner registered through the API.
 */

export const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const OWNER = { email: 'owner@reliability.test', password: 'reliability owner password' };

let built = false;
export async function ensureBuilt(): Promise<void> {
  if (built) return;
  await buildNode();
  built = true;
}

export function tempDir(prefix: string): string {
  return trackTempDir(mkdtempSync(path.join(os.tmpdir(), `edge-cms-reliability-${prefix}-`)));
}

let dbCounter = 0;
/**
 * A fresh PostgreSQL database on the shared server, named after this process
 * so concurrent test runs never meet it, dropped at the end (and on Ctrl-C).
 */
export interface FreshPostgres {
  name: string;
  url: string;
  port: number;
  drop(): Promise<void>;
}

export async function freshPostgres(): Promise<FreshPostgres> {
  const { default: postgres } = await import('postgres');
  const name = `reliability_${process.pid}_${++dbCounter}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await sql.end();
    }
  };
  // A synchronous last resort for Ctrl-C: psql may be missing, the async drop above is the normal path.
  onCleanup(() => {
    if (!dropped) process.stderr.write(`reliability: database ${name} may be left on ${url.host}; drop it by hand\n`);
  });
  return { name, url: url.toString(), port: Number(url.port || 5432), drop };
}

/**
 * Starts the Node server. `env` overrides the defaults (SQLite and a local
 * directory in `dir`, a random JWT secret, mail to the log).
 */
export interface NodeServer extends StartedServer {
  dir: string;
  logFile: string;
  jwtSecret: string;
  env: Record<string, string>;
  /** The server's output so far (the log mailer writes e-mails there). */
  log(): string;
}

export async function nodeServer(
  name: string,
  {
    dir = tempDir('node'),
    env = {},
    logFile = path.join(dir, 'server.log'),
  }: { dir?: string; env?: Record<string, string>; logFile?: string } = {},
): Promise<NodeServer> {
  await ensureBuilt();
  const jwtSecret = randomBytes(32).toString('hex');
  const fullEnv: Record<string, string> = {
    DATABASE_URL: `sqlite:${path.join(dir, 'cms.db')}`,
    STORAGE_URL: `file:${path.join(dir, 'uploads')}`,
    JWT_SECRET: jwtSecret,
    PUBLIC_URL: 'http://127.0.0.1',
    ...env,
  };
  const server = await startServer({
    name,
    script: NODE_BUNDLE,
    env: fullEnv,
    cwd: dir,
    logFile,
    readyPath: '/readyz',
  });
  return {
    ...server,
    dir,
    logFile,
    jwtSecret,
    env: fullEnv,
    log: () => readFileSync(logFile, 'utf8'),
  };
}

/** The newest `{PUBLIC_URL}{page}?code=…` link the log mailer wrote. */
export function lastCode(logText: string, page: string): string {
  const all = [...logText.matchAll(new RegExp(`${page}\\?code=([A-Za-z0-9_-]+)`, 'g'))];
  if (all.length === 0) throw new Error(`no ${page}?code= link in the server log`);
  return all.at(-1)?.[1] ?? '';
}

/** The code of the next e-mail to `page`: the log may be written after the response (workerd flushes late). */
export async function nextCode(log: () => string, page: string, before = '', timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = log();
    const fresh = text.includes(before) ? text.slice(text.lastIndexOf(before) + before.length) : text;
    try {
      return lastCode(before ? fresh : text, page);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Registers and verifies the first account (the owner) and signs in. Returns its token. */
export async function registerOwner(
  server: { url: string; log(): string },
  log: () => string = server.log,
): Promise<string> {
  await must(server.url, 'POST', '/v1/auth/register', 201, { body: OWNER });
  const code = await nextCode(log, '/verify');
  await must(server.url, 'POST', '/v1/auth/verify', 200, { body: { code } });
  const session = await must<{ token: string }>(server.url, 'POST', '/v1/auth/login', 200, { body: OWNER });
  return session.token;
}
