import { DomainError } from '../../core/domain/errors.js';
import { acceptImage, type ImageLimits } from '../../core/media/image-acceptance.js';
import { fromBase64, toHex } from '../../core/shared/crypto.js';
import type { ImageContentType } from '../media/media.schema.js';
import { invalidArchive } from './archive-codec.js';

/** What an imported image row says about its file (checked by archive-rules.ts when its line was read). */
export interface ArchivedImage {
  contentType: ImageContentType;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
}

/**
 * An archived original, let in only as an upload would be: its SHA-256 is
 * its row's (a damaged or swapped file), then the upload's own gate
 * (core/media/image-acceptance.ts: type and size from the bytes, pixel and
 * structure floods) and the row must say what the bytes are. Its stored
 * type is the one read from the bytes, never a string from the archive.
 */
export async function checkArchivedImage(
  record: { key: string; contentType: string; data: string },
  image: ArchivedImage,
  limits: ImageLimits,
  line: number,
): Promise<{ bytes: Uint8Array; contentType: ImageContentType }> {
  const refuse = (message: string) => invalidArchive(`${record.key}: ${message}`, line);
  if (record.contentType !== image.contentType) throw refuse('content type differs from its image');
  const bytes = fromBase64(record.data);
  if (!bytes) throw refuse('data is not base64');
  if (toHex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)) !== image.sha256)
    throw refuse("the bytes do not match the image's SHA-256");
  const accepted = acceptImage(bytes, limits);
  if (!accepted.ok)
    throw accepted.tooLarge
      ? new DomainError('payload_too_large', `Archive line ${line}: ${record.key}: ${accepted.message}`)
      : refuse(accepted.message);
  const { header } = accepted;
  if (header.contentType !== image.contentType)
    throw refuse(`the bytes are ${header.contentType}, its image says ${image.contentType}`);
  if (bytes.byteLength !== image.bytes) throw refuse(`${bytes.byteLength} bytes, its image says ${image.bytes}`);
  if (header.width !== image.width || header.height !== image.height)
    throw refuse(`the bytes are ${header.width}×${header.height}, its image says ${image.width}×${image.height}`);
  return { bytes, contentType: header.contentType };
}
