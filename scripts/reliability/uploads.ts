import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { multipart, send } from './lib/http.ts';
import { problemsOf } from './lib/verdict.ts';

/**
 * Step 1b: hostile uploads. Each case says what must happen: `refused` (a 4xx
 * with the contract body, nothing stored), `either` (a 4xx, or stored and
 * safe: a truncated file whose header is whole is kept by design, see
 * docs/features.md, its Variants entry), or `stored` (201, and then served
 * only as the image type the bytes are, with nosniff, byte for byte). Client
 * file names must never reach the file system: after the run, no file may
 * exist outside the upload directory that was not there before.
 */

const img = await import('../../test/support/images.ts');
const bytes = (s: string) => Buffer.from(s, 'latin1');
const cat = (...parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
const TRAVERSAL_TARGET = `reliability-escape-${process.pid}.png`;

/** `stored`: 201 and served safely; `refused`: a 4xx; `either`: one or the other; `any`: only the generic checks. */
type Expectation = 'stored' | 'refused' | 'either' | 'any';

type UploadCase = {
  name: string;
  expect: Expectation;
  /** A status the answer must have, on top of the expectation. */
  status?: number;
} & (
  | { file: Uint8Array; filename?: string; type?: string; field?: string; raw?: undefined }
  | { raw: Uint8Array; contentType: string; file?: undefined; filename?: undefined }
);

export function uploadCases(maxUploadBytes: number): UploadCase[] {
  const png = Buffer.from(img.PNG_1x1);
  const jpeg = Buffer.from(img.JPEG_400x300);
  return [
    { name: 'PNG 1×1', file: png, expect: 'stored' },
    { name: 'JPEG 400×300', file: jpeg, expect: 'stored' },
    { name: 'GIF 1×1', file: img.GIF_1x1, expect: 'stored' },
    { name: 'WebP 1×1', file: img.WEBP_1x1, expect: 'stored' },
    {
      name: 'SVG with a script, image/svg+xml',
      file: img.SVG,
      filename: 'x.svg',
      type: 'image/svg+xml',
      expect: 'refused',
    },
    { name: 'HTML named .png, image/png', file: img.HTML, filename: 'x.png', type: 'image/png', expect: 'refused' },
    { name: 'ZIP', file: img.ZIP, filename: 'x.zip', expect: 'refused' },
    { name: 'empty file', file: Buffer.alloc(0), expect: 'refused' },
    { name: 'PNG header claiming 64000×64000', file: img.pngBomb(), expect: 'refused' },
    { name: 'PNG with a script appended', file: img.pngWithScript(), expect: 'either' },
    {
      name: 'GIF/JavaScript polyglot',
      file: bytes('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(1);//;'),
      filename: 'x.gif',
      expect: 'either',
    },
    {
      name: 'JPEG with PHP appended',
      file: cat(jpeg, bytes('<?php system($_GET["c"]); ?>')),
      filename: 'x.php.jpg',
      expect: 'either',
    },
    {
      name: 'PNG magic, then HTML',
      file: cat(png.subarray(0, 8), bytes('<html><script>alert(1)</script></html>')),
      expect: 'refused',
    },
    {
      name: 'JPEG with its magic bytes changed',
      file: cat(bytes('\x00\x00'), jpeg.subarray(2)),
      filename: 'x.jpg',
      expect: 'refused',
    },
    { name: 'PNG bytes named .jpg, image/jpeg', file: png, filename: 'x.jpg', type: 'image/jpeg', expect: 'stored' },
    { name: 'truncated PNG (30 bytes: whole header, no data)', file: png.subarray(0, 30), expect: 'either' },
    { name: 'truncated JPEG (half)', file: jpeg.subarray(0, jpeg.length >> 1), filename: 'x.jpg', expect: 'either' },
    { name: 'GIF of 1001 frames', file: img.gifWithFrames(1001), filename: 'x.gif', expect: 'refused' },
    {
      name: `file name ../../../../tmp/${TRAVERSAL_TARGET}`,
      file: png,
      filename: `../../../../tmp/${TRAVERSAL_TARGET}`,
      expect: 'stored',
    },
    { name: 'file name ..\\..\\..\\evil.png', file: png, filename: '..\\..\\..\\evil.png', expect: 'stored' },
    { name: 'file name %2e%2e%2fevil.png', file: png, filename: '%2e%2e%2fevil.png', expect: 'stored' },
    { name: 'file name /etc/passwd', file: png, filename: '/etc/passwd', expect: 'stored' },
    { name: 'file name with NUL and newline', file: png, filename: 'a\u0000b\r\nX-Evil: 1.png', expect: 'any' },
    { name: 'file name of 5000 characters', file: png, filename: `${'x'.repeat(5000)}.png`, expect: 'stored' },
    { name: 'file in field "image" instead of "file"', file: png, field: 'image', expect: 'refused' },
    {
      name: `${maxUploadBytes + 1} bytes (one over the limit)`,
      file: cat(png, Buffer.alloc(maxUploadBytes + 1 - png.length)),
      expect: 'refused',
      status: 413,
    },
    { name: 'not multipart (raw PNG body)', raw: png, contentType: 'image/png', expect: 'refused' },
    {
      name: 'multipart without its closing boundary',
      raw: multipart(png).body.subarray(0, 120),
      contentType: 'boundary-of-first',
      expect: 'refused',
    },
  ];
}

function listFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(p, out);
    else out.push(p);
  }
  return out;
}

export interface UploadResult {
  name: string;
  status: number;
  served: string | null;
  problems: string[];
  answer: string;
}

export async function fuzzUploads(
  server: { url: string; jwtSecret: string; dir: string },
  token: string,
  articleId: string,
  { maxUploadBytes }: { maxUploadBytes: number },
): Promise<{ cases: UploadResult[]; escaped: string[] }> {
  const ctx = { secrets: [server.jwtSecret], paths: [server.dir] };
  const before = new Set(listFiles(server.dir));
  const uploadsDir = path.join(server.dir, 'uploads');
  const results: UploadResult[] = [];
  for (const c of uploadCases(maxUploadBytes)) {
    const upload =
      c.raw === undefined
        ? multipart(c.file, {
            ...(c.field ? { field: c.field } : {}),
            filename: c.filename ?? 'image.png',
            ...(c.type ? { type: c.type } : {}),
          })
        : {
            body: Buffer.from(c.raw),
            contentType: c.contentType === 'boundary-of-first' ? multipart(Buffer.alloc(0)).contentType : c.contentType,
          };
    const req = {
      method: 'POST',
      path: `/v1/articles/${articleId}/images`,
      headers: { authorization: `Bearer ${token}`, 'content-type': upload.contentType },
      body: upload.body,
    };
    const res = await send(server.url, req);
    const problems = problemsOf(res, req, ctx);
    let served: string | null = null;
    if (res.status === 201) {
      const { image }: { image: { url: string; filename: string } } = JSON.parse(res.body.toString('utf8'));
      const get = await send(server.url, { path: new URL(image.url, server.url).pathname });
      const type = String(get.headers['content-type']);
      served = `${get.status} ${type}`;
      if (get.status !== 200) problems.push(`stored but served ${get.status}`);
      if (!/^image\/(png|jpeg|gif|webp)$/.test(type)) problems.push(`served as ${type}`);
      if (get.headers['x-content-type-options'] !== 'nosniff') problems.push('served without nosniff');
      if (c.file && !get.body.equals(Buffer.from(c.file))) problems.push('served bytes differ from the upload');
      // A damaged original is kept and served as itself (by design); a variant of it must be a clean 400, never a crash.
      const variant = await send(server.url, { path: `${new URL(image.url, server.url).pathname}?w=160` });
      served += `; ?w=160 → ${variant.status}`;
      if (variant.status !== 200 && variant.status !== 400) problems.push(`variant answered ${variant.status}`);
      if (c.filename && (/[./\\]{2}|passwd|evil/.test(image.filename) || image.filename.includes('\0')))
        problems.push(`client file name reached the store: ${image.filename}`);
    }
    const want = c.expect;
    if (want === 'stored' && res.status !== 201) problems.push(`expected 201, got ${res.status}`);
    if (want === 'refused' && (res.status < 400 || res.status >= 500))
      problems.push(`expected a 4xx, got ${res.status}`);
    if (c.status && res.status !== c.status) problems.push(`expected ${c.status}, got ${res.status}`);
    results.push({
      name: c.name,
      status: res.status,
      served,
      problems,
      answer: res.status >= 400 ? res.body.toString('utf8').slice(0, 160) : '',
    });
  }
  const escaped = listFiles(server.dir).filter(
    (f) =>
      !before.has(f) && !f.startsWith(uploadsDir + path.sep) && !/cms\.db(-wal|-shm|-journal)?$|server\.log$/.test(f),
  );
  if (existsSync(path.join('/tmp', TRAVERSAL_TARGET))) escaped.push(path.join('/tmp', TRAVERSAL_TARGET));
  return { cases: results, escaped };
}
