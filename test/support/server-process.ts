import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../scripts/lib/supervisor/server-node-flags.ts';
import { REPO_ROOT } from './paths.js';

export const SERVER_BUNDLE = path.join(REPO_ROOT, 'dist/node/server.mjs');

/**
 * Where outgoing connections get their local ports (Linux; the kernel's default elsewhere). A port
 * from this range, probed free and released, can be handed to some connection (a test's database
 * client) before the server binds it: EADDRINUSE. Test servers take theirs from below it instead.
 */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

/**
 * A port nothing listens on: in `TEST_PORT_RANGE` (`47000-47999`) when set, for a machine shared
 * with other work; else a random one from 20000 up to the ephemeral range, never from inside it.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? '');
  const [low, high] = range ? [Number(range[1]), Number(range[2])] : [20_000, Math.max(20_001, ephemeralLow() - 1)];
  for (let tries = 0; tries < 50; tries++) {
    const port = await listenOnce(low + Math.floor(Math.random() * (high - low + 1))).catch(() => null);
    if (port !== null) return port;
  }
  throw new Error(`no free port in ${low}-${high}`);
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs the built Node server (what `npm start` runs; another copy of it with `bundle`) and waits until it
 * listens. `nodeFlags` come after the server's own, so they win where both name one.
 */
export async function startServer(
  cwd: string,
  env: Record<string, string>,
  bundle = SERVER_BUNDLE,
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeFlags, bundle], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not listen in time:\n${output}`)), 30_000);
    child.stdout!.on('data', () => {
      if (output.includes('"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  await listening;
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the server expecting it to refuse to start; resolves with its exit code and output. */
export async function failedStart(
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_BUNDLE], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

/**
 * Registers owner@example.com on a fresh server (log mailer) and verifies it
 * with the code the server printed: the first verified account is the owner.
 * Resolves with its session token.
 */
export async function registerVerifiedOwner(base: string, output: () => string): Promise<string> {
  const reg = await fetch(`${base}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'a long enough password' }),
  });
  const { token } = (await reg.json()) as { token: string };
  const code = /verify\?code=([A-Za-z0-9_-]+)/.exec(output())?.[1];
  const verified = await fetch(`${base}/v1/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  if (verified.status !== 200) throw new Error(`verifying the owner failed: ${verified.status}`);
  return token;
}
