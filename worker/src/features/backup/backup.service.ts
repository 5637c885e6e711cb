import { DomainError } from '../../core/domain/errors.js';
import { base64 } from '../../core/shared/crypto.js';
import type { BlobStore } from '../../ports/blob-store.js';
import type { Clock, Logger } from '../../ports/runtime.js';
import { originalKey } from '../media/index.js';
import { ARCHIVE_FORMAT, ArchiveRecord } from './archive.schema.js';
import { decodeRow, encodeRow, invalidArchive } from './archive-codec.js';
import { createArchiveLedger } from './archive-ledger.js';
import { archiveRules, type TableRules } from './archive-rules.js';
import { type ArchivedImage, checkArchivedImage } from './archived-image.js';
import type { ExportedTableInfo } from './backup.entities.js';
import type { BackupRepository } from './backup.port.js';
import { ndjsonLines } from './ndjson-lines.js';

export interface BackupDeps {
  repos: { backup: BackupRepository };
  blobs: BlobStore;
  clock: Clock;
  logger: Logger;
  version: { version: string };
  /** MAX_UPLOAD_BYTES: the largest original, so the longest line an archive may hold. */
  maxUploadBytes: number;
  /** MAX_IMAGE_PIXELS: an imported original passes the same gate as an upload. */
  maxImagePixels: number;
}

/** The account doing an import through the API: it stays, and stays the owner. */
export interface Importer {
  id: string;
  email: string;
}

export interface ImportSummary {
  rows: Record<string, number>;
  images: number;
  /** Accounts imported without a password: each sets one with "Forgot password" (or the CLI). */
  accountsWithoutPassword: number;
}

const PAGE = 200;
// The DOM and Workers typings disagree on what the compression streams take; both carry bytes.
type Bytes = TransformStream<Uint8Array, Uint8Array>;
const gzip = () => new CompressionStream('gzip') as unknown as Bytes;
const gunzip = () => new DecompressionStream('gzip') as unknown as Bytes;
/** Tables an import may find rows in: the accounts (the importer's own) and the settings it replaces. */
const NOT_CONTENT = ['users', 'purgeSettings'];

/** Every table's rules: archive-rules.ts's, and those a feature declared with its table's export decision. */
function withDeclaredRules(
  written: Readonly<Record<string, TableRules>>,
  tables: readonly ExportedTableInfo[],
): Readonly<Record<string, TableRules>> {
  const declared = tables.flatMap((t) => (t.rules ? [[t.name, t.rules] as const] : []));
  const twice = declared.find(([name]) => name in written);
  if (twice) throw new Error(`${twice[0]}: archive rules declared by its feature and in archive-rules.ts`);
  return { ...written, ...Object.fromEntries(declared) };
}

export function createBackupService(deps: BackupDeps) {
  const repo = deps.repos.backup;
  const written = archiveRules(deps);
  const imageLimits = { maxBytes: deps.maxUploadBytes, maxPixels: deps.maxImagePixels };
  // Read on first use: building the services touches no repository.
  let known: { names: string[]; info: Map<string, ExportedTableInfo> } | undefined;
  const tables = () => {
    known ??= { names: repo.tables.map((t) => t.name), info: new Map(repo.tables.map((t) => [t.name, t])) };
    return known;
  };
  let allRules: Readonly<Record<string, TableRules>> | undefined;
  const rules = () => (allRules ??= withDeclaredRules(written, repo.tables));

  async function* lines(): AsyncGenerator<string> {
    yield JSON.stringify({
      kind: 'header',
      format: ARCHIVE_FORMAT,
      product: 'edge-cms',
      version: deps.version.version,
      exportedAt: deps.clock.now().toISOString(),
      tables: tables().names,
    });
    let rows = 0;
    let blobs = 0;
    for (const { name: table, omit } of repo.tables) {
      for (let offset = 0; ; offset += PAGE) {
        const page = await repo.page(table, offset, PAGE);
        for (const row of page) {
          rows += 1;
          yield JSON.stringify({ kind: 'row', table, row: encodeRow(row, omit) });
        }
        if (page.length < PAGE) break;
      }
    }
    for (let offset = 0; ; offset += PAGE) {
      const page = await repo.page('images', offset, PAGE);
      for (const image of page) {
        const key = originalKey(String(image.filename));
        const object = await deps.blobs.get(key);
        if (!object) {
          // The purge's "rows without a blob": the row travels, the missing file cannot.
          deps.logger.info('export: an image has no original; its row goes without the file', { key });
          continue;
        }
        const bytes = new Uint8Array(await new Response(object.body).arrayBuffer());
        blobs += 1;
        yield JSON.stringify({ kind: 'blob', key, contentType: String(image.contentType), data: base64(bytes) });
      }
      if (page.length < PAGE) break;
    }
    yield JSON.stringify({ kind: 'end', rows, blobs });
  }

  return {
    /** The archive as a gzip stream; an error midway ends it without its end record, which import refuses. */
    exportArchive(): ReadableStream<Uint8Array> {
      const encoder = new TextEncoder();
      const source = lines();
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await source.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(`${next.value}\n`));
          } catch (err) {
            deps.logger.error('export failed', err);
            controller.error(err);
          }
        },
        async cancel() {
          await source.return(undefined);
        },
      }).pipeThrough(gzip());
    },

    /**
     * Reads an archive into an installation without content. All or
     * nothing: on any refusal or failure, the rows and files written so far
     * are removed again before the error is answered.
     */
    async importArchive(body: ReadableStream<Uint8Array>, importer: Importer | null): Promise<ImportSummary> {
      for (const table of tables().names.filter((t) => !NOT_CONTENT.includes(t))) {
        const n = await repo.count(table);
        if (n > 0)
          throw new DomainError('conflict', `Import needs an installation without content: ${table} has ${n} rows`);
      }
      if ((await repo.count('users')) > (importer ? 1 : 0))
        throw new DomainError('conflict', 'Import needs an installation whose only account is the owner doing it');
      const written: string[] = [];
      try {
        return await readArchive(body, importer, written);
      } catch (err) {
        await repo.clear(importer ? [importer.id] : []).catch((e: unknown) => {
          deps.logger.error('import: the rows written before the failure could not be removed', e);
        });
        for (const key of written) await deps.blobs.delete(key).catch(() => {});
        throw err;
      }
    },
  };

  async function readArchive(
    body: ReadableStream<Uint8Array>,
    importer: Importer | null,
    written: string[],
  ): Promise<ImportSummary> {
    const { names, info } = tables();
    const summary: ImportSummary = { rows: {}, images: 0, accountsWithoutPassword: 0 };
    // base64 of the largest original, plus the record around it.
    const maxLine = Math.ceil(deps.maxUploadBytes / 3) * 4 + 4096;
    const images = new Map<string, ArchivedImage>();
    const ledger = createArchiveLedger(rules());
    let header = false;
    let ended = false;
    let rows = 0;
    let blobs = 0;
    let tableAt = 0;
    let batch: { table: string; rows: Record<string, unknown>[] } | null = null;
    const flush = async () => {
      if (batch && batch.rows.length > 0) await repo.insert(batch.table, batch.rows);
      batch = null;
    };
    let unzipped: ReadableStream<Uint8Array>;
    try {
      unzipped = body.pipeThrough(gunzip());
    } catch {
      throw invalidArchive('not a gzip archive');
    }
    try {
      for await (const [n, text] of ndjsonLines(unzipped, maxLine)) {
        if (ended) throw invalidArchive('records after the end record', n);
        let parsed: ReturnType<typeof ArchiveRecord.safeParse>;
        try {
          parsed = ArchiveRecord.safeParse(JSON.parse(text));
        } catch {
          throw invalidArchive('not JSON', n);
        }
        if (!parsed.success) throw invalidArchive(parsed.error.issues[0]?.message ?? 'not an archive record', n);
        const record = parsed.data;
        if (!header) {
          if (record.kind !== 'header') throw invalidArchive(`expected the ${ARCHIVE_FORMAT} header`, n);
          const unknown = record.tables.filter((t) => !info.has(t));
          if (unknown.length > 0)
            throw invalidArchive(
              `tables this version does not know: ${unknown.join(', ')} (a newer version's archive)`,
              n,
            );
          header = true;
          continue;
        }
        if (record.kind === 'header') throw invalidArchive('a second header', n);
        if (record.kind === 'row') {
          const at = names.indexOf(record.table);
          const table = info.get(record.table);
          if (at === -1 || !table) throw invalidArchive(`unknown table ${JSON.stringify(record.table)}`, n);
          if (at < tableAt) throw invalidArchive(`${record.table} rows after rows of a later table`, n);
          tableAt = at;
          rows += 1;
          const row = decodeRow(table, rules()[table.name], record.row, n);
          if (table.name === 'users') {
            // The importer stays the owner; an archived account with its address is the same person.
            if (importer && (row.role === 'owner' || row.email === importer.email)) continue;
            if (importer && row.id === importer.id) throw invalidArchive("users.id is the importing account's", n);
            summary.accountsWithoutPassword += 1;
          }
          // Stored html is a cache of the body, never taken as given: it is left out, and the first read
          // renders it once, bounded as a write is (articles/article-html.ts), and stores it.
          if (table.name === 'articles') row.html = null;
          // What the table's feature makes again from the checked row (a redirect's key), never taken as given.
          await table.remake?.(row);
          const taken = ledger.add(table.name, row);
          if (taken) throw invalidArchive(taken, n);
          if (table.name === 'images') images.set(originalKey(String(row.filename)), row as unknown as ArchivedImage);
          summary.rows[table.name] = (summary.rows[table.name] ?? 0) + 1;
          if (batch && batch.table !== table.name) await flush();
          batch ??= { table: table.name, rows: [] };
          batch.rows.push(row);
          if (batch.rows.length >= PAGE) await flush();
          continue;
        }
        await flush();
        if (record.kind === 'blob') {
          blobs += 1;
          const image = images.get(record.key);
          if (!image) throw invalidArchive(`${record.key} belongs to no imported image`, n);
          const { bytes, contentType } = await checkArchivedImage(record, image, imageLimits, n);
          written.push(record.key);
          await deps.blobs.put(record.key, bytes, contentType);
          images.delete(record.key);
          summary.images += 1;
          continue;
        }
        if (record.rows !== rows || record.blobs !== blobs)
          throw invalidArchive(
            `the end record counts ${record.rows} rows and ${record.blobs} files, the archive holds ${rows} and ${blobs}`,
            n,
          );
        ended = true;
      }
    } catch (err) {
      if (err instanceof DomainError) throw err;
      // DecompressionStream's own errors: not gzip, or gzip cut short.
      if (err instanceof TypeError || (err as Error)?.name === 'TypeError')
        throw invalidArchive('not a gzip archive, or one cut short');
      throw err;
    }
    if (!header) throw invalidArchive('the archive is empty');
    if (!ended) throw invalidArchive('the archive was cut short: it has no end record');
    return summary;
  }
}

export type BackupService = ReturnType<typeof createBackupService>;
