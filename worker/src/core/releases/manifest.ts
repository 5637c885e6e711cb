import * as z from 'zod';

/**
 * The signed release manifest and the feed that lists them. docs/releases.md
 * describes every field; scripts/release.ts writes them.
 */
export const MANIFEST_SCHEMA = 'edge-cms.release-manifest/1';
export const FEED_SCHEMA = 'edge-cms.release-feed/1';

/** The largest artifact any manifest may declare (a guard on top of the signed length). */
export const MAX_ARTIFACT_BYTES = 1024 * 1024 * 1024;

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
export const semverString = z.string().regex(SEMVER, 'a semantic version, e.g. 1.4.2 or 2.0.0-rc.1');
const isoInstant = z.string().datetime({ offset: false });

/** A file name, never a path: the artifact is fetched next to the feed. */
const artifactName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a plain file name');

export const ArtifactSchema = z.strictObject({
  name: artifactName,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits'),
  length: z.number().int().positive().max(MAX_ARTIFACT_BYTES),
});

export const ManifestSchema = z.strictObject({
  schema: z.literal(MANIFEST_SCHEMA),
  product: z.literal('edge-cms'),
  target: z.enum(['node']),
  version: semverString,
  sequence: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  issuedAt: isoInstant,
  expiresAt: isoInstant,
  minUpdateFrom: semverString,
  notes: z.string().max(100_000),
  artifacts: z.array(ArtifactSchema).min(1).max(16),
});
export type Manifest = z.infer<typeof ManifestSchema>;
export type Artifact = z.infer<typeof ArtifactSchema>;

export const SignatureSchema = z.strictObject({
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  sig: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'base64url of 64 bytes'),
});

/** A signed manifest as it travels: the manifest object and its signatures. */
export const SignedManifestSchema = z.strictObject({
  signed: z.unknown(),
  signatures: z.array(z.unknown()).max(8),
});
export interface SignedManifest {
  signed: Manifest;
  signatures: { keyId: string; sig: string }[];
}

export const FeedSchema = z.strictObject({
  schema: z.literal(FEED_SCHEMA),
  updatedAt: z.string(),
  releases: z.array(z.unknown()).max(1000),
});
