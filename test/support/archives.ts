import { expect } from 'vitest';
import { base64, sha256Hex } from '../../worker/src/core/shared/crypto.js';
import type { ApiHarness } from './api-harness.js';
import { newId } from './db-contract.js';
import { PNG_1x1 } from './images.js';

/**
 * Export archives (docs/backups.md) read and written by tests, and crafted
 * ones: a minimal valid archive whose parts a test replaces, so each hostile
 * case differs from an importable archive in exactly what it tests.
 */
type Bytes = TransformStream<Uint8Array, Uint8Array>;

export async function gunzipLines(bytes: Uint8Array): Promise<string[]> {
  const text = await new Response(
    new Blob([bytes as Uint8Array<ArrayBuffer>])
      .stream()
      .pipeThrough(new DecompressionStream('gzip') as unknown as Bytes),
  ).text();
  return text.split('\n').filter((l) => l !== '');
}

export async function gzipLines(lines: string[]): Promise<Uint8Array> {
  const stream = new Blob([`${lines.join('\n')}\n`])
    .stream()
    .pipeThrough(new CompressionStream('gzip') as unknown as Bytes);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export type Row = Record<string, unknown>;
export interface CraftedFile {
  /** The row's `contentType`, and the blob record's. */
  contentType: string;
  bytes: Uint8Array;
  /** Row fields to change (the rest describe `bytes` truthfully, as a PNG unless said). */
  row?: Row;
}
export interface Crafted {
  users?: Row[];
  article?: Row;
  files?: CraftedFile[];
  /** Extra rows, table by table, placed after the crafted ones of the same table. */
  extra?: Record<string, Row[]>;
}

const NOW = '2026-01-02T03:04:05.678Z';
// The archive's table order (parents first), as this version exports it.
export const ARCHIVE_TABLES = [
  'users',
  'sites',
  'authors',
  'tags',
  'articles',
  'articleAuthors',
  'articleTags',
  'images',
  'articleImages',
  'articleDrafts',
  'articleRevisions',
  'redirects',
];

export const archivedUser = (over: Row = {}): Row => ({
  id: newId(),
  email: `user-${newId().slice(-12)}@example.com`,
  displayName: null,
  role: 'admin',
  verified: true,
  ownerLock: null,
  createdAt: NOW,
  updatedAt: NOW,
  ...over,
});

export const archivedArticle = (over: Row = {}): Row => ({
  id: newId(),
  title: 'Crafted',
  body: 'hello',
  format: 'markdown',
  status: 'offline',
  siteId: null,
  createdAt: NOW,
  updatedAt: NOW,
  publishedAt: null,
  seo: null,
  scheduledAt: null,
  version: 1,
  slug: `crafted-${newId().slice(-12)}`,
  slugScope: '',
  excerpt: null,
  html: null,
  featureImageId: null,
  ...over,
});

/** A draft's or a revision's fields as stored (JSON), with `over` in them. */
export const archivedFields = (over: Row = {}): string =>
  JSON.stringify({
    title: 'Crafted',
    body: 'hello',
    format: 'markdown',
    siteId: null,
    authorIds: [],
    tagIds: [],
    seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, ogImage: null, noindex: false },
    slug: 'crafted',
    excerpt: null,
    featureImageId: null,
    ...over,
  });

export const archivedDraft = (article: Row, over: Row = {}): Row => ({
  articleId: article.id,
  fields: archivedFields(),
  version: 1,
  baseVersion: 1,
  updatedAt: NOW,
  ...over,
});

export const archivedRevision = (article: Row, over: Row = {}): Row => ({
  id: newId(),
  articleId: article.id,
  createdAt: NOW,
  actorType: 'system',
  actorId: null,
  version: 1,
  title: 'Crafted',
  fields: archivedFields(),
  bytes: new TextEncoder().encode(archivedFields()).byteLength,
  ...over,
});

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The lines of an archive: one article, its files and the given accounts (and any extra rows). */
export async function craftLines(c: Crafted = {}): Promise<string[]> {
  const article = c.article ?? archivedArticle();
  const rows: Record<string, Row[]> = { users: c.users ?? [], articles: [article], images: [], articleImages: [] };
  const blobs: Row[] = [];
  for (const file of c.files ?? []) {
    const id = newId();
    const image: Row = {
      id,
      articleId: article.id,
      filename: `${id}.${EXTENSIONS[file.contentType] ?? 'png'}`,
      contentType: file.contentType,
      bytes: file.bytes.byteLength,
      width: 1,
      height: 1,
      sha256: await sha256Hex(file.bytes),
      createdAt: NOW,
      originalName: null,
      alt: '',
      caption: '',
      ...file.row,
    };
    rows.images!.push(image);
    rows.articleImages!.push({ articleId: article.id, imageId: image.id });
    blobs.push({
      kind: 'blob',
      key: `originals/${String(image.filename)}`,
      contentType: file.contentType,
      data: base64(file.bytes),
    });
  }
  for (const [table, extra] of Object.entries(c.extra ?? {})) rows[table] = [...(rows[table] ?? []), ...extra];
  const lines = [
    JSON.stringify({
      kind: 'header',
      format: 'edge-cms.export/1',
      product: 'edge-cms',
      version: '0.0.0',
      exportedAt: NOW,
      tables: ARCHIVE_TABLES,
    }),
  ];
  let count = 0;
  for (const table of ARCHIVE_TABLES)
    for (const row of rows[table] ?? []) {
      count += 1;
      lines.push(JSON.stringify({ kind: 'row', table, row }));
    }
  for (const blob of blobs) lines.push(JSON.stringify(blob));
  lines.push(JSON.stringify({ kind: 'end', rows: count, blobs: blobs.length }));
  return lines;
}

export const craftArchive = async (c: Crafted = {}) => gzipLines(await craftLines(c));

/** A 1×1 PNG: the file crafted archives carry when the file is not the point. */
export const PNG_FILE: CraftedFile = { contentType: 'image/png', bytes: PNG_1x1 };

export const importInto = (api: ApiHarness, token: string, body: Uint8Array) =>
  api.request('/v1/import', {
    method: 'POST',
    token,
    body: body as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'application/gzip' },
  });

/** After a refused import: no content, no file, and no account but the importer's. */
export async function expectNothingImported(api: ApiHarness, token: string): Promise<void> {
  expect((await (await api.request('/v1/articles', { token })).json()).items).toEqual([]);
  expect((await (await api.request('/v1/sites', { token })).json()).items).toEqual([]);
  expect((await (await api.request('/v1/redirects', { token })).json()).items).toEqual([]);
  expect((await (await api.request('/v1/media', { token })).json()).items).toEqual([]);
  expect((await api.deps.blobs.list('originals/')).items).toEqual([]);
  expect((await (await api.request('/v1/user', { token })).json()).items).toHaveLength(1);
}
