import { Hono } from 'hono';
import { DomainError } from '../../core/domain/errors.js';
import type { AppEnv } from '../env.js';

/**
 * `/static/uploadedImages/{filename}`. Conditional requests are answered from
 * the row; the bytes come from storage. `no-cache` makes every cache revalidate,
 * so a deleted image is never served again from anywhere.
 */
export const staticImagesRoutes = new Hono<AppEnv>().get('/:filename', async (c) => {
  if (c.req.query('w') !== undefined || c.req.query('format') !== undefined) {
    throw new DomainError('invalid_request', 'Image variants are not available yet', [
      { path: 'w', message: 'variants are not available yet' },
    ]);
  }
  const filename = c.req.param('filename');
  const headers = { 'Cache-Control': 'public, no-cache' };
  const image = await c.var.services.images.find(filename);
  const etag = `"${image.sha256}"`;
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    return c.body(null, 304, { ...headers, ETag: etag });
  }
  const meta = { ...headers, ETag: etag, 'Content-Type': image.contentType, 'Content-Disposition': 'inline' };
  // Hono answers HEAD through this GET route and drops the body unread; an
  // opened blob stream would hold a file handle until garbage collection.
  if (c.req.method === 'HEAD') {
    await c.var.services.images.assertStored(filename);
    return c.body(null, 200, { ...meta, 'Content-Length': String(image.bytes) });
  }
  const { blob } = await c.var.services.images.open(filename);
  return c.body(blob.body, 200, { ...meta, 'Content-Length': String(blob.size) });
});
