import * as z from 'zod';
import { DomainError } from '../../core/domain/errors.js';
import { ifNoneMatchHits } from '../../core/shared/entity-tags.js';
import { rawBody, routesOf } from '../../http/route.js';
import { attachmentDisposition, takeDownloadFlag } from './download-name.js';
import { IMAGE_CONTENT_TYPES, IMAGE_EXTENSIONS, type ImageContentType } from './media.schema.js';

const TYPE_OF_EXTENSION = new Map(
  Object.entries(IMAGE_EXTENSIONS).map(([type, ext]) => [ext as string, type as ImageContentType]),
);

/**
 * The type an original is answered with: the one its file name stands for
 * (`{id}.{ext}`, made by the server and matched by IMAGE_FILENAME before any
 * lookup), never the row's own string. Uploads and imports store only types
 * read from the bytes; this is the second wall, so that no row, however it
 * was written, makes the CMS's origin answer HTML, script or SVG.
 */
function servedImageType(filename: string): ImageContentType | 'application/octet-stream' {
  return TYPE_OF_EXTENSION.get(filename.slice(filename.lastIndexOf('.') + 1)) ?? 'application/octet-stream';
}

/**
 * `/static/uploadedImages/{filename}`, and its variants with `?w=&format=`.
 * Conditional requests are answered from the row; the bytes come from
 * storage. `no-cache` makes every cache revalidate, so a deleted image (or
 * variant) is never served again from anywhere. The query is part of the
 * URL, so caches key variants apart without a `Vary` of their own.
 */
export const staticImagesRoutes = [
  routesOf('media')({
    method: 'get',
    path: '/static/uploadedImages/{filename}',
    summary:
      'An uploaded image, or a variant with ?w= and ?format=webp|jpeg|png; ?download=1 (original only) serves it as an attachment under its original name',
    allow: 'public',
    params: { filename: z.string() },
    // Declared for the description and the strict query check; the rules (presets, formats) are the handler's.
    query: z.object({
      w: z
        .string()
        .optional()
        .meta({ type: 'integer', minimum: 16, maximum: 4096, description: 'A width of IMAGE_VARIANT_WIDTHS' }),
      format: z.string().optional().meta({ description: 'webp, jpeg or png' }),
      download: z.string().optional().meta({ description: '1: the original as an attachment' }),
    }),
    responses: { 200: rawBody(IMAGE_CONTENT_TYPES, { binary: true }), 304: null },
    // The query is checked by hand (`w` and `format` once each, nothing else); the row is read from the database.
    errors: [400, 503],
    handler: async (c, { params: { filename }, services, defer }) => {
      const { images, variants } = services;
      // Checked first: a malformed query is 400 whatever the filename.
      const query = c.req.queries();
      const download = takeDownloadFlag(query);
      const variant = variants.parseQuery(query);
      if (download && variant) {
        throw new DomainError('invalid_request', 'download is for the original: leave out w and format', [
          { path: 'download', message: 'not with w or format' },
        ]);
      }
      const headers = { 'Cache-Control': 'public, no-cache' };
      const image = await images.find(filename);
      const etag = variant ? variants.etag(image, variant) : `"${image.sha256}"`;
      if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return c.body(null, 304, { ...headers, ETag: etag });
      const contentType = variant ? variants.contentType(image, variant) : servedImageType(image.filename);
      const disposition = download ? attachmentDisposition(image) : 'inline';
      const meta = { ...headers, ETag: etag, 'Content-Type': contentType, 'Content-Disposition': disposition };
      // Hono answers HEAD through this GET route and drops the body unread; an
      // opened blob stream would hold a file handle until garbage collection.
      if (c.req.method === 'HEAD') {
        if (!variant) {
          await images.assertStored(filename);
          return c.body(null, 200, { ...meta, 'Content-Length': String(image.bytes) });
        }
        const info = await variants.open(image, variant, true, defer, c.req.raw.signal);
        return c.body(null, 200, { ...meta, 'Content-Length': String(info.size) });
      }
      if (!variant) {
        const { blob } = await images.open(filename);
        return c.body(blob.body, 200, { ...meta, 'Content-Length': String(blob.size) });
      }
      // The request's signal: a render still waiting for a thread is dropped once all its clients have gone.
      const blob = await variants.open(image, variant, false, defer, c.req.raw.signal);
      if (!('body' in blob)) throw new Error('variant opened without a body');
      return c.body(blob.body, 200, { ...meta, 'Content-Length': String(blob.size) });
    },
  }),
];
