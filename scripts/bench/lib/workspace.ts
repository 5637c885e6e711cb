import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NODE_BUNDLE } from '../../build-node.ts';
import { type StartServerOptions, trackTempDir } from './processes.ts';

/**
 * A benchmark's temporary directory (removed on exit) with the SQLite file
 * and the uploads its servers share, their settings, and the options that
 * start one of them there (`script`: the server bundle unless told another).
 */
export function benchWorkspace(prefix: string, { script = NODE_BUNDLE, env = {} as NodeJS.ProcessEnv } = {}) {
  const tmp = trackTempDir(mkdtempSync(path.join(os.tmpdir(), prefix)));
  const dbFile = path.join(tmp, 'cms.db');
  const serverEnv: NodeJS.ProcessEnv = {
    DATABASE_URL: `sqlite:${dbFile}`,
    STORAGE_URL: `file:${path.join(tmp, 'uploads')}`,
    JWT_SECRET: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex'),
    PUBLIC_URL: 'http://127.0.0.1',
    ...env,
  };
  const serverOpts = (name: string, more: NodeJS.ProcessEnv = {}, server = script): StartServerOptions => ({
    name,
    script: server,
    env: { ...serverEnv, ...more },
    cwd: tmp,
    logFile: path.join(tmp, 'server.log'),
    readyPath: '/readyz',
  });
  return { tmp, dbFile, serverEnv, serverOpts };
}
