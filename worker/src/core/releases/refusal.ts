/**
 * Why a release was refused. Every refusal is hard: the caller stages
 * nothing and keeps the current version.
 */
export type RefusalReason =
  | 'malformed' // not a signed manifest / feed of the documented shape
  | 'signature_missing' // no signature at all
  | 'signature_invalid' // a pinned key's signature does not verify
  | 'key_not_pinned' // signed only by keys we do not know
  | 'key_retired' // signed only by keys we no longer trust
  | 'rollback' // sequence lower than the highest already seen
  | 'expired' // past expiresAt (freeze attack)
  | 'wrong_target' // a manifest for another product or target
  | 'downgrade' // version lower than the running one
  | 'version_jump' // the running version is below minUpdateFrom
  | 'feed_empty' // the feed lists no release
  | 'feed_inconsistent' // two different manifests with one sequence
  | 'artifact_unknown' // the manifest declares no artifact of that name
  | 'artifact_too_long' // more bytes than declared (download aborted)
  | 'artifact_truncated' // fewer bytes than declared
  | 'artifact_hash_mismatch' // right length, wrong sha256
  | 'artifact_mix_and_match' // the bytes are another manifest's artifact
  | 'download_failed'; // the server did not answer 200

export class ReleaseRefusedError extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(`${reason}: ${message}`);
    this.name = 'ReleaseRefusedError';
  }
}

export const refuse = (reason: RefusalReason, message: string): never => {
  throw new ReleaseRefusedError(reason, message);
};
