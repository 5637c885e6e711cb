import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../../worker/src/core/releases/canonical-json.ts';
import { FEED_SCHEMA, type SignedManifest } from '../../worker/src/core/releases/manifest.ts';
import { describeFile } from './release-artifact.ts';

export const FEED_FILE = 'feed.json';
export const MANIFEST_SUFFIX = '.manifest.json';

/** DIR/feed.json: what the server's FeedSchema reads. */
export interface Feed {
  schema: typeof FEED_SCHEMA;
  updatedAt: string;
  releases: SignedManifest[];
}

/** The highest sequence in DIR/feed.json, 0 when there is none. */
export function highestSequence(dir: string): number {
  const file = path.join(dir, FEED_FILE);
  if (!existsSync(file)) return 0;
  const feed: Feed = JSON.parse(readFileSync(file, 'utf8'));
  return Math.max(0, ...feed.releases.map((r) => r.signed.sequence));
}

/**
 * (Re)writes DIR/feed.json from every DIR/*.manifest.json: newest sequence
 * first. Refuses two manifests with one sequence, a sequence at or below an
 * existing feed's highest that the feed does not already hold (sequences
 * only grow), and an artifact missing from DIR or differing from its
 * manifest. The feed itself is not signed; each manifest in it is.
 */
export function writeFeed(dir: string, { now = new Date() }: { now?: Date } = {}): Feed {
  const previous: Pick<Feed, 'releases'> = existsSync(path.join(dir, FEED_FILE))
    ? JSON.parse(readFileSync(path.join(dir, FEED_FILE), 'utf8'))
    : { releases: [] };
  const known = new Set(previous.releases.map((r) => canonicalJson(r.signed)));
  const prevHighest = Math.max(0, ...previous.releases.map((r) => r.signed.sequence));

  const releases = readdirSync(dir)
    .filter((f) => f.endsWith(MANIFEST_SUFFIX))
    .map((f): SignedManifest => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
  const sequences = new Map<number, string>();
  for (const r of releases) {
    const { sequence, version } = r.signed;
    if (sequences.has(sequence))
      throw new Error(`${version} and ${sequences.get(sequence)} share sequence ${sequence}`);
    sequences.set(sequence, version);
    if (sequence <= prevHighest && !known.has(canonicalJson(r.signed))) {
      throw new Error(
        `${version}'s sequence ${sequence} is not above the feed's highest ${prevHighest}; sequences only grow`,
      );
    }
    for (const a of r.signed.artifacts) {
      const file = path.join(dir, a.name);
      if (!existsSync(file)) throw new Error(`${a.name} (of ${version}) is not in ${dir}`);
      const actual = describeFile(file);
      if (actual.sha256 !== a.sha256 || actual.length !== a.length)
        throw new Error(`${a.name} differs from ${version}'s manifest`);
    }
  }
  releases.sort((a, b) => b.signed.sequence - a.signed.sequence);
  const feed: Feed = { schema: FEED_SCHEMA, updatedAt: now.toISOString(), releases };
  const tmp = path.join(dir, `.${FEED_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(feed, null, 2)}\n`);
  renameSync(tmp, path.join(dir, FEED_FILE));
  return feed;
}
