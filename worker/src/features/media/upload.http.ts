import type { Context, MiddlewareHandler } from 'hono';
import { DomainError } from '../../core/domain/errors.js';
import type { AppEnv } from '../../http/env.js';
import { limitBody } from '../../http/middleware/body-limit.js';

// Room for the multipart boundaries and part headers around the file itself.
const MULTIPART_OVERHEAD = 16 * 1024;

const tooLargeMessage = (max: number) => `The upload is larger than ${max} bytes`;

/**
 * Counts bytes as they stream in and stops at the images service's limit: a
 * lying or missing Content-Length never makes us buffer more than the limit.
 */
export const uploadLimit = (maxBytes: number): MiddlewareHandler<AppEnv> =>
  limitBody(maxBytes + MULTIPART_OVERHEAD, tooLargeMessage(maxBytes));

/** The file's bytes, the name the client gave it (unsanitised, '' when none), and the form's other text fields. */
export interface UploadedFile {
  bytes: Uint8Array;
  name: string;
  text(field: string): string | undefined;
}

export async function readUploadedFile(c: Context, field: string, maxBytes: number): Promise<UploadedFile> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new DomainError('invalid_request', `Send the image as multipart/form-data in the field "${field}"`, [
      { path: field, message: 'multipart/form-data expected' },
    ]);
  }
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new DomainError('invalid_request', 'The multipart body could not be read', [
      { path: field, message: 'malformed multipart body' },
    ]);
  }
  const file = form.get(field);
  if (!file || typeof file === 'string') {
    throw new DomainError('invalid_request', `The field "${field}" must hold a file`, [
      { path: field, message: 'required' },
    ]);
  }
  if (file.size > maxBytes) throw new DomainError('payload_too_large', tooLargeMessage(maxBytes));
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    name: file.name ?? '',
    text(name) {
      const value = form.get(name);
      if (value !== null && typeof value !== 'string') {
        throw new DomainError('invalid_request', `The field "${name}" must be text`, [
          { path: name, message: 'text expected' },
        ]);
      }
      return value ?? undefined;
    },
  };
}
