import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AssetServer } from '../../ports/runtime.js';

/**
 * The admin's static build served from a directory (Node target), with the
 * same routing Workers' assets give: `/settings` → `settings/index.html`,
 * unknown pages and files → `404.html` with status 404.
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

// Qwik's build output is content-hashed: safe to cache for good.
const IMMUTABLE = /^\/(build|assets)\//;

async function fileAt(root: string, rel: string): Promise<{ file: string; size: number; mtimeMs: number } | null> {
  const file = path.resolve(root, `.${rel}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    const s = await stat(file);
    return s.isFile() ? { file, size: s.size, mtimeMs: s.mtimeMs } : null;
  } catch {
    return null;
  }
}

export function createDirAssetServer(rootDir: string): AssetServer {
  const root = path.resolve(rootDir);

  async function resolve(pathname: string) {
    const candidates = pathname.endsWith('/')
      ? [`${pathname}index.html`]
      : path.posix.extname(pathname)
        ? [pathname]
        : [`${pathname}/index.html`, `${pathname}.html`];
    for (const rel of candidates) {
      const found = await fileAt(root, rel);
      if (found) return { ...found, status: 200 };
    }
    // Every screen is a prerendered page: anything else is the not-found page, never the dashboard.
    const notFound = await fileAt(root, '/404.html');
    return notFound ? { ...notFound, status: 404 } : null;
  }

  return {
    async fetch(request: Request): Promise<Response> {
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(request.url).pathname);
      } catch {
        return new Response('Not found', { status: 404 });
      }
      // `/_headers` configures the Workers asset layer; it is never a file to serve.
      if (pathname === '/_headers') return new Response('Not found', { status: 404 });
      if (pathname.includes('\0') || pathname.includes('\\') || pathname.split('/').includes('..')) {
        return new Response('Not found', { status: 404 });
      }
      const found = await resolve(pathname);
      if (!found) return new Response('Not found', { status: 404 });
      const etag = `"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
      const headers = new Headers({
        'Content-Type': TYPES[path.extname(found.file)] ?? 'application/octet-stream',
        'Cache-Control': IMMUTABLE.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
        ETag: etag,
      });
      if (found.status === 200 && request.headers.get('if-none-match') === etag) {
        return new Response(null, { status: 304, headers });
      }
      headers.set('Content-Length', String(found.size));
      const body = request.method === 'HEAD' ? null : (Readable.toWeb(createReadStream(found.file)) as ReadableStream);
      return new Response(body, { status: found.status, headers });
    },
  };
}
