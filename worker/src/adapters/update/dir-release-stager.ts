import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseStager, ReleaseToStage } from '../../ports/update-feed.js';

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;
const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Node: stages a verified release as RELEASES_DIR/<version>/ holding the
 * artifact and `release-manifest.json` (its signed manifest). Written into
 * a scratch directory and renamed into place, so a failure leaves nothing
 * under <version>/; an existing <version>/ is replaced only by a complete
 * new one. Unpacking and `npm ci` belong to the apply step.
 */
export function createDirReleaseStager(releasesDir: string): ReleaseStager {
  return {
    async stage(release: ReleaseToStage, bytes: Uint8Array) {
      if (!VERSION.test(release.version)) throw new Error(`refusing to stage version ${release.version}`);
      if (!FILE.test(release.artifactName)) throw new Error(`refusing to stage artifact ${release.artifactName}`);
      await mkdir(releasesDir, { recursive: true });
      const scratch = path.join(releasesDir, `.staging-${release.version}-${randomBytes(6).toString('hex')}`);
      const target = path.join(releasesDir, release.version);
      try {
        await mkdir(scratch, { mode: 0o755 });
        const handle = await open(path.join(scratch, release.artifactName), 'wx', 0o644);
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await writeFile(
          path.join(scratch, 'release-manifest.json'),
          `${JSON.stringify(release.signedManifest, null, 2)}\n`,
          { flag: 'wx' },
        );
        if (await stat(target).catch(() => null)) {
          const old = `${scratch}.old`;
          await rename(target, old);
          await rename(scratch, target);
          await rm(old, { recursive: true, force: true });
        } else {
          await rename(scratch, target);
        }
      } catch (e) {
        await rm(scratch, { recursive: true, force: true });
        throw e;
      }
    },
  };
}
