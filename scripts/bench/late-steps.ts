import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AdminBytes, measureAdminBytes } from './admin-bytes.ts';
import { BUDGET_BYTES, bundleSize } from './bundle-size.ts';
import type { BundleResult } from './lib/goals.ts';
import { onCleanup } from './lib/processes.ts';
import { measureWorkers, type WorkersConfig, type WorkersResult } from './workers.ts';

/**
 * The benchmark's steps that run once the Node servers are stopped, each
 * optional (`--skip-…`): the Workers rows, the Worker bundle, the admin's
 * budgets. Each gives its result or the error that stopped it, so that the
 * table is still printed with the others' rows before the run fails.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Step<T> {
  value?: T;
  error?: unknown;
}

/** A step that has not settled by then has hung somewhere (a socket, a child): it fails, and cleanup kills its children. */
const STEP_DEADLINE_MS = 15 * 60_000;

async function step<T>(skip: boolean | undefined, run: () => Promise<T>): Promise<Step<T>> {
  if (skip) return {};
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result within ${STEP_DEADLINE_MS / 60_000} min`)), STEP_DEADLINE_MS);
  });
  try {
    return { value: await Promise.race([run(), deadline]) };
  } catch (error) {
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

/** A child command whose output we keep; tracked so Ctrl-C takes it down too. */
function runCommand(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    onCleanup(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let out = '';
    const collect = (d: Buffer) => {
      out += d;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal}):\n${out.slice(-3000)}`)),
    );
  });
}

/** The Worker's CPU per public read and list page, cache miss and hit, against a bare Hono Worker (workers.ts). */
export const workersStep = (skip: boolean | undefined, cfg: WorkersConfig, tmp: string, log: (m: string) => void) =>
  step<WorkersResult>(skip, () => measureWorkers(cfg, tmp, log));

/** The Worker bundle, as `wrangler deploy --dry-run` builds it. */
export const bundleStep = (skip: boolean | undefined, tmp: string, log: (m: string) => void) =>
  step<BundleResult>(skip, async () => {
    log('wrangler deploy --dry-run');
    const outdir = path.join(tmp, 'worker');
    mkdirSync(outdir);
    await runCommand(path.join(root, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', outdir], {
      WRANGLER_SEND_METRICS: 'false',
    });
    const b = bundleSize(outdir);
    if (b.files.length === 0) throw new Error(`wrangler wrote no .js or .wasm files to ${outdir}`);
    return { ...b, budget: BUDGET_BYTES };
  });

/**
 * The admin's JS before the login form is usable, on the editor route, and
 * the media grid's bytes for 24 phone photos, in Chromium (admin-bytes.ts,
 * admin-budgets.ts).
 */
export const adminStep = (skip: boolean | undefined, serverScript: string | undefined, log: (m: string) => void) =>
  step<AdminBytes>(skip, () => {
    log('admin budgets: Chromium signs in on /login, opens the editor and the media grid');
    return measureAdminBytes(serverScript ? { serverScript } : {});
  });
