import { closeSync, copyFileSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Crash-safe file primitives for the supervisor: a file is written under a
 * temporary name, fsync'd, renamed over its final name, and the directory
 * fsync'd, so after a power cut or kill -9 a reader sees either the whole
 * old file or the whole new one (POSIX rename is atomic).
 */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // some filesystems refuse fsync on a directory; rename is still atomic there
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function fsyncFile(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function writeFileDurable(file: string, text: string, mode = 0o600): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  fsyncDir(path.dirname(file));
}

/** Copies src to dest (replacing it atomically). */
export function copyFileDurable(src: string, dest: string): void {
  const tmp = `${dest}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  copyFileSync(src, tmp);
  fsyncFile(tmp);
  renameSync(tmp, dest);
  fsyncDir(path.dirname(dest));
}

/** A JSON file this program wrote itself (so its shape is the caller's `T`), or null when absent. */
export function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') return null;
    throw new Error(`${file}: ${err.message}`);
  }
}
