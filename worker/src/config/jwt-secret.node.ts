import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SettingsError } from './settings.js';

/** The same floor as JWT_SECRET's (settings.ts): an HMAC key shorter than this is guessable offline. */
const MIN_SECRET_LENGTH = 32;

/**
 * On Node, an unset JWT_SECRET is generated once and kept in the data
 * directory (a 0700 directory, a 0600 file), so sessions survive restarts
 * without a secret ever being written into code or config. A file that
 * holds less than a usable key stops the start: signing with it would make
 * sessions forgeable (short) or every login fail (empty).
 */
export async function loadOrCreateJwtSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'jwt-secret');
  const existing = await readSecret(file);
  if (existing !== null) return existing;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  // 'wx' fails if another process created it meanwhile; then use theirs.
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const theirs = await readSecret(file);
    if (theirs === null) throw err;
    return theirs;
  }
}

async function readSecret(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const secret = text.trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new SettingsError([
      `${file}: holds ${secret.length === 0 ? 'no key' : `a ${secret.length}-character key`}; a session key needs at least ${MIN_SECRET_LENGTH} characters. ` +
        'Delete the file to have a new key generated (every session ends), write a longer one into it, or set JWT_SECRET.',
    ]);
  }
  // Written by an older version, or by hand: nobody else may read it.
  if ((await stat(file)).mode & 0o077) await chmod(file, 0o600).catch(() => undefined);
  return secret;
}
