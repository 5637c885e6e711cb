import type { Settings } from '../config/settings.js';
import type { VersionDto } from '../contract/system.schema.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Mailer } from '../ports/mailer.js';
import type { Repositories } from '../ports/repositories.js';
import type { AssetServer, Clock, IdGenerator, Logger, PasswordHasher, TokenSigner } from '../ports/runtime.js';

/** Everything the app needs, built once by wiring/ (per process, or per isolate on Workers). */
export interface AppDeps {
  settings: Settings;
  version: VersionDto;
  repos: Repositories;
  blobs: BlobStore;
  mailer: Mailer;
  clock: Clock;
  ids: IdGenerator;
  passwords: PasswordHasher;
  tokens: TokenSigner;
  assets: AssetServer;
  logger: Logger;
}
