import { Hono } from 'hono';
import { deferFor } from '../../http/defer.js';
import type { AppEnv } from '../../http/env.js';
import type { Defer } from '../../ports/runtime.js';
import { parseVariantQuery } from './variant-spec.js';

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);

/**
 * `/static/uploadedImages/{filename}`, and its variants with `?w=&format=`.
 * Conditional requests are answered from the row; the bytes come from
 * storage. `no-cache` makes every cache revalidate, so a deleted image (or
 * variant) is never served again from anywhere. The query is part of the
 * URL, so caches key variants apart without `Vary`.
 */
export const staticImagesRoutes = (presets: readonly number[], fallbackDefer: Defer) =>
  new Hono<AppEnv>().get('/:filename', async (c) => {
    // Checked first: a malformed query is 400 whatever the filename.
    const variant = parseVariantQuery(c.req.queries(), presets);
    const filename = c.req.param('filename');
    const headers = { 'Cache-Control': 'public, no-cache' };
    const image = await c.var.services.images.find(filename);
    const { variants } = c.var.services;
    const etag = variant ? variants.etag(image, variant) : `"${image.sha256}"`;
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, { ...headers, ETag: etag });
    const contentType = variant ? variants.contentType(image, variant) : image.contentType;
    const meta = { ...headers, ETag: etag, 'Content-Type': contentType, 'Content-Disposition': 'inline' };
    // Hono answers HEAD through this GET route and drops the body unread; an
    // opened blob stream would hold a file handle until garbage collection.
    if (c.req.method === 'HEAD') {
      if (!variant) {
        await c.var.services.images.assertStored(filename);
        return c.body(null, 200, { ...meta, 'Content-Length': String(image.bytes) });
      }
      const info = await variants.open(image, variant, true, deferFor(c, fallbackDefer));
      return c.body(null, 200, { ...meta, 'Content-Length': String(info.size) });
    }
    if (!variant) {
      const { blob } = await c.var.services.images.open(filename);
      return c.body(blob.body, 200, { ...meta, 'Content-Length': String(blob.size) });
    }
    const blob = await variants.open(image, variant, false, deferFor(c, fallbackDefer));
    if (!('body' in blob)) throw new Error('variant opened without a body');
    return c.body(blob.body, 200, { ...meta, 'Content-Length': String(blob.size) });
  });
