import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { qwikVite } from '@builder.io/qwik/optimizer';
import { qwikCity } from '@builder.io/qwik-city/vite';
import { defineConfig } from 'vite';
import { chunkGroups } from './tools/chunk-groups';
import { onDemandChunks } from './tools/on-demand-chunks';

/**
 * The admin's client build. Paths are absolute because the build is started
 * from the repository root (scripts/build-admin.ts), not from admin-qwik/.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
// scripts/build-admin.ts builds into a scratch directory and then swaps it
// for dist/, so a failed build never leaves a broken dist/ being served.
const outDir = process.env.ADMIN_QWIK_OUT_DIR ?? path.join(here, 'dist');

export default defineConfig(() => ({
  root: here,
  publicDir: path.join(here, 'public'),
  // Nothing from the repository's root .env or tsconfig paths should leak in.
  envDir: here,
  plugins: [
    qwikCity({
      routesDir: path.join(here, 'src/routes'),
      // The specification names the route `/settings`, without a slash.
      trailingSlash: false,
    }),
    qwikVite({
      srcDir: path.join(here, 'src'),
      client: { outDir },
      ssr: { outDir: path.join(here, 'server') },
      // ESLint is not a dependency of this repository.
      lint: false,
      // usePreventNavigate$: the editor asks (or saves first) before a link, Back or a reload leaves unsaved text.
      experimental: ['preventNavigate'],
    }),
    onDemandChunks(),
    chunkGroups(),
  ],
  resolve: {
    // The server's photon codec (worker/src/adapters/image) imports the
    // package root, whose default build imports the .wasm as a module (a
    // Workers feature). The browser takes the "others" build instead, whose
    // wasm lib/image-shrink.ts fetches from an emitted asset.
    alias: [{ find: /^@cf-wasm\/photon$/, replacement: '@cf-wasm/photon/others' }],
  },
  build: {
    // Under the CSP only 'self' may serve scripts: never inline assets as data: URLs.
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        // The pre-upload shrink's wasm (lib/image-shrink.ts) goes with the
        // scripts under /build; other assets keep Qwik's default place.
        assetFileNames: (asset: { names: string[] }) =>
          asset.names.some((n) => n.endsWith('.wasm')) ? 'build/[hash]-[name].[ext]' : 'assets/[hash]-[name].[ext]',
      },
    },
  },
  logLevel: 'warn' as const,
}));
