import { type FileHandle, open } from 'node:fs/promises';

const CHUNK = 64 * 1024;

/** No file yet is an empty log. */
async function openIfExists(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The lines of a file from last to first, read in chunks from the end, so
 * the newest page of a large log costs one read. The descriptor pins the
 * file: a trim that renames a new file into place does not disturb a reader.
 */
export async function* linesBackward(path: string): AsyncGenerator<string> {
  const handle = await openIfExists(path);
  if (!handle) return;
  try {
    let position = (await handle.stat()).size;
    let carry: Buffer = Buffer.alloc(0);
    while (position > 0) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      let buffer = Buffer.concat([chunk, carry]);
      let end = buffer.length;
      // Split on '\n' bytes (never inside a UTF-8 sequence), keep the head for the next chunk.
      for (let i = buffer.length - 1; i >= 0; i--) {
        if (buffer[i] === 0x0a) {
          if (end > i + 1) yield buffer.subarray(i + 1, end).toString('utf8');
          end = i;
        }
      }
      carry = Buffer.from(buffer.subarray(0, end));
      buffer = Buffer.alloc(0);
    }
    if (carry.length > 0) yield carry.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The lines of a file from first to last. */
export async function* linesForward(path: string): AsyncGenerator<string> {
  const handle = await openIfExists(path);
  if (!handle) return;
  try {
    let position = 0;
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const buffer = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        if (buffer[i] === 0x0a) {
          if (i > start) yield buffer.subarray(start, i).toString('utf8');
          start = i + 1;
        }
      }
      carry = Buffer.from(buffer.subarray(start));
    }
    if (carry.length > 0) yield carry.toString('utf8');
  } finally {
    await handle.close();
  }
}
