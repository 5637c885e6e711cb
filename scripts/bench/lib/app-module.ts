import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Some of the app's own TypeScript (the renderer, the image codec), bundled
 * with esbuild and imported, so that the benchmark measures exactly the
 * code the server runs. `source` is a module of re-exports from the
 * repository's root; the bundle is written to node_modules/.cache under
 * `name`, and imported afresh on every call.
 */
export async function importAppModule<T>(name: string, source: string): Promise<T> {
  const out = await bundleAppModule(name, source);
  return (await import(`${pathToFileURL(out).href}?t=${Date.now()}`)) as T;
}

/**
 * `importAppModule`'s bundle, for a child process to import: its file path.
 * `options` override the defaults (packages stay in node_modules).
 */
export async function bundleAppModule(
  name: string,
  source: string,
  options: Partial<esbuild.BuildOptions> = {},
): Promise<string> {
  const out = path.join(root, `node_modules/.cache/edge-cms-bench/${name}.mjs`);
  mkdirSync(path.dirname(out), { recursive: true });
  await esbuild.build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outfile: out,
    logLevel: 'error',
    ...options,
  });
  return out;
}
