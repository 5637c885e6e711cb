import { chmod, mkdir, open, stat } from 'node:fs/promises';

/**
 * The data directory holds password hashes, every draft, the activity log
 * and the session key: nobody but the server's own user may read it,
 * whatever the process umask (an audit found 0644 files in a 0755 directory).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parent with mode 0700; an existing directory keeps its mode. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates `file` empty with mode 0600 when it is missing, and takes group
 * and other permissions away from an existing one (files of an older
 * version). Best effort on existing files: one owned by another user stays
 * as it is, and opening it then fails or works as it always did.
 */
export async function ensurePrivateFile(file: string): Promise<void> {
  try {
    await (await open(file, 'wx', PRIVATE_FILE_MODE)).close();
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  await restrictFile(file);
}

/** Takes group and other permissions away from `file` if it exists. */
export async function restrictFile(file: string): Promise<void> {
  try {
    if ((await stat(file)).mode & 0o077) await chmod(file, PRIVATE_FILE_MODE);
  } catch {
    // missing, or not ours: nothing to tighten
  }
}
