import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Ghost as the Ghost comparison (ghost.ts) runs it: the Ghost install in
 * GHOST_DIR, production mode on its SQLite client (better-sqlite3), content
 * in GHOST_CONTENT, listening on 127.0.0.1:PORT as the bench's servers do.
 * Its log only says warnings and errors: no request log, the cheapest Ghost
 * there is, where our server writes an access line per request.
 */
const dir = process.env.GHOST_DIR;
const content = process.env.GHOST_CONTENT;
const port = process.env.PORT;
if (!dir || !content || !port) throw new Error('GHOST_DIR, GHOST_CONTENT and PORT are needed');
// Ghost reads its settings from the environment (nconf, `__` between levels) when it loads.
Object.assign(process.env, {
  NODE_ENV: 'production',
  url: `http://127.0.0.1:${port}`,
  server__host: '127.0.0.1',
  server__port: port,
  database__client: 'better-sqlite3',
  database__connection__filename: path.join(content, 'data', 'ghost.db'),
  paths__contentPath: content,
  logging__level: 'warn',
  logging__transports: '["stdout"]',
  // Signing in from a new device would otherwise wait for a code sent by mail.
  security__staffDeviceVerification: 'false',
  privacy__useUpdateCheck: 'false',
});
process.chdir(dir);
await import(pathToFileURL(path.join(dir, 'index.js')).href);
