/**
 * Where image bytes live: R2 on Workers, a local directory or S3 on Node.
 * Keys are server-made (`originals/{uuid}.jpg`); an adapter refuses any key
 * outside `[A-Za-z0-9._/-]`, with `..`, a leading `/` or an empty segment.
 */
export interface BlobInfo {
  key: string;
  size: number;
  contentType: string;
  uploadedAt: Date;
}

export interface BlobObject extends BlobInfo {
  body: ReadableStream<Uint8Array>;
}

export interface BlobPage {
  items: BlobInfo[];
  cursor: string | null;
}

export interface BlobStore {
  /** All or nothing: a reader never sees a partial object. Overwrites. */
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<BlobObject | null>;
  head(key: string): Promise<BlobInfo | null>;
  /** No error when the key does not exist. */
  delete(key: string): Promise<void>;
  list(prefix: string, cursor?: string, limit?: number): Promise<BlobPage>;
  /** Resolves when storage answers; throws DomainError('unavailable') otherwise. */
  ping(): Promise<void>;
}
