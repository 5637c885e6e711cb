export { canonicalJson, signedBytes, SIGNING_CONTEXT } from './canonical-json.js';
export { downloadArtifact, type DownloadOptions } from './download.js';
export { FEED_SCHEMA, MANIFEST_SCHEMA, type Artifact, type Manifest, type SignedManifest } from './manifest.js';
export { PINNED_RELEASE_KEYS, type PinnedKey } from './pinned-keys.js';
export { ReleaseRefusedError, type RefusalReason } from './refusal.js';
export { compareVersions } from './semver.js';
export { checkPolicy, verifyArtifact, verifyFeed, verifyManifest, verifySignature, type VerifiedFeed, type VerifyContext } from './verify-manifest.js';
export { UpdateService, UpdatesUnavailableError, type UpdateServiceDeps, type UpdateStatusDto } from './update.service.js';
