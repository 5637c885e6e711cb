import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Prints the Worker bundle's size (JS + wasm, gzip), as Cloudflare counts
 * it, and fails above the 1 MiB budget. Usage: bundle-size.ts DIR
 * (the --outdir of `wrangler deploy --dry-run`).
 */
export const BUDGET_BYTES = 1024 * 1024;

export function bundleSize(dir: string): { raw: number; gzip: number; files: string[] } {
  let raw = 0;
  let gzip = 0;
  const files: string[] = [];
  const visit = (p: string): void => {
    for (const e of readdirSync(p)) {
      const f = path.join(p, e);
      if (statSync(f).isDirectory()) visit(f);
      else if (/\.(m?js|wasm)$/.test(e)) {
        const bytes = readFileSync(f);
        raw += bytes.length;
        gzip += gzipSync(bytes, { level: 9 }).length;
        files.push(path.relative(dir, f));
      }
    }
  };
  visit(dir);
  return { raw, gzip, files };
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const dir = process.argv[2] ?? 'dist/worker';
  const { raw, gzip, files } = bundleSize(dir);
  if (files.length === 0) {
    console.error(`no .js or .wasm files under ${dir}`);
    process.exit(1);
  }
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `Worker bundle: ${files.length} files, ${kib(raw)} raw, ${kib(gzip)} gzip (budget ${kib(BUDGET_BYTES)}, ${((gzip / BUDGET_BYTES) * 100).toFixed(1)}% used)`,
  );
  if (gzip > BUDGET_BYTES) {
    console.error('Worker bundle is over budget');
    process.exit(1);
  }
}
