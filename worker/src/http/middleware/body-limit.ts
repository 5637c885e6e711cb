import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DomainError } from '../../core/domain/errors.js';

/**
 * Refuses a body over `maxBytes` with 413 `payload_too_large` before the
 * route reads it: a Content-Length above the limit is refused without
 * reading a byte, and a body without one (chunked) is counted as it streams
 * and dropped at the limit. The runtime never delivers more than a stated
 * Content-Length, so memory stays bounded either way.
 */
export const limitBody = (maxBytes: number, message: string): MiddlewareHandler =>
  bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new DomainError('payload_too_large', message);
    },
  });

export interface JsonBodyLimits {
  /** MAX_JSON_BYTES: every JSON route but the article writes. */
  json: number;
  /** MAX_ARTICLE_BYTES: creating an article, editing it, replacing its SEO data. */
  article: number;
}

// The article writes; the image upload below them has its own limit (MAX_UPLOAD_BYTES, routes/upload.ts).
const ARTICLE_CREATE = /^\/v1\/articles$/;
const ARTICLE_EDIT = /^\/v1\/articles\/[^/]+$/;
const ARTICLE_SEO = /^\/v1\/articles\/[^/]+\/seo$/;
const IMAGE_UPLOAD = /^\/v1\/articles\/[^/]+\/images$/;
// An import streams its archive and bounds each line itself (features/backup).
const IMPORT = /^\/v1\/import$/;

function limitFor(method: string, path: string): keyof JsonBodyLimits | null {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  if (method === 'POST' && (IMAGE_UPLOAD.test(path) || IMPORT.test(path))) return null;
  if (
    (method === 'POST' && ARTICLE_CREATE.test(path)) ||
    (method === 'PATCH' && ARTICLE_EDIT.test(path)) ||
    (method === 'PUT' && ARTICLE_SEO.test(path))
  )
    return 'article';
  return 'json';
}

/** One middleware for every route under /v1: which limit applies is decided by method and path. */
export function jsonBodyLimits(limits: JsonBodyLimits): MiddlewareHandler {
  const small = limitBody(limits.json, `The request body is larger than ${limits.json} bytes`);
  const article = limitBody(limits.article, `The article is larger than ${limits.article} bytes`);
  return (c, next) => {
    const kind = limitFor(c.req.method, c.req.path);
    if (kind === null) return next();
    return (kind === 'article' ? article : small)(c, next);
  };
}
