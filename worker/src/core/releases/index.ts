export { canonicalJson, SIGNING_CONTEXT, signedBytes } from './canonical-json.js';
export { type DownloadOptions, downloadArtifact } from './download.js';
export { type Artifact, FEED_SCHEMA, MANIFEST_SCHEMA, type Manifest, type SignedManifest } from './manifest.js';
export { PINNED_RELEASE_KEYS, type PinnedKey } from './pinned-keys.js';
export { type RefusalReason, ReleaseRefusedError } from './refusal.js';
export { compareVersions } from './semver.js';
export {
  UpdateService,
  type UpdateServiceDeps,
  UpdatesUnavailableError,
} from './update.service.js';
export {
  checkPolicy,
  type VerifiedFeed,
  type VerifyContext,
  verifyArtifact,
  verifyFeed,
  verifyManifest,
  verifySignature,
} from './verify-manifest.js';
