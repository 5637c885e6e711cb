import pkg from '../../../package.json' with { type: 'json' };
import type { VersionDto } from '../wire/version.schema.js';

/**
 * Stamped by the build (esbuild `define` for Node, `wrangler --define` for
 * Workers). Unstamped code (tests, `wrangler dev` without the script) says so.
 */
declare const __CMS_BUILD__: { commit: string; builtAt: string } | undefined;

export function buildInfo(target: VersionDto['target']): VersionDto {
  const stamp = typeof __CMS_BUILD__ === 'undefined' ? undefined : __CMS_BUILD__;
  return {
    version: pkg.version,
    commit: stamp?.commit ?? 'unknown',
    builtAt: stamp?.builtAt ?? 'unknown',
    target,
  };
}
