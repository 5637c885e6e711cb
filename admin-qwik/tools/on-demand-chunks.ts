import type { Plugin } from 'vite';

/**
 * Modules that a screen loads only when someone asks for them (a dynamic
 * `import()` behind a click or an opened panel), whose bundles Qwik's
 * preloader must therefore not fetch ahead of time:
 *
 * - the server's Markdown renderer (markdown-it and the sanitiser, ~48 KB
 *   gzip), imported by the editor's preview when it is first shown;
 * - the pre-upload shrink (photon's and the WebP encoder's glue, ~18 KB
 *   gzip, plus their wasm), imported when a picture is chosen for upload;
 * - the API's own zod rules the editor checks before sending (zod and the
 *   shared schemas, ~27 KB gzip): the title (lib/title.ts, when the field
 *   is left or a title is saved), the SEO record (lib/seo.ts, on a save that sends it)
 *   and the slug (lib/slug-rule.ts, on its save);
 * - what a catalogue entry (lib/catalog.ts) loads for its form: the API's
 *   request schemas (any feature's `*.schema.ts`, which bring zod) and its
 *   field notes (lib/catalog-notes/). The navigation reads the entries on
 *   every page, so without this every page would fetch them, the login
 *   page included.
 *
 * Qwik's bundle graph (dist/build/bundle-graph.json) lists every dynamic
 * import of a bundle as a likely next step, and the preloader fetches the
 * whole graph reachable from what the page uses, whatever the probability:
 * on the editor route that made both of these part of the first visit. The
 * imports themselves are untouched; only the "preload this" edges to these
 * bundles are dropped from the graph, so they are fetched on first use.
 */
export const ON_DEMAND_MODULES = [
  /\/worker\/src\/core\/content\/render\.ts$/,
  /\/src\/lib\/image-shrink\.ts$/,
  /\/src\/lib\/(title|seo|slug-rule)\.ts$/,
  /\/worker\/src\/features\/[^/]+\/[^/]+\.schema\.ts$/,
  /\/src\/lib\/catalog-notes\//,
];

interface GraphBundle {
  origins?: string[];
  dynamicImports?: string[];
  [key: string]: unknown;
}

type BundleGraphAdder = (manifest: { bundles: Record<string, GraphBundle> }) => Record<string, GraphBundle>;

interface QwikViteApi {
  registerBundleGraphAdder?: (adder: BundleGraphAdder) => void;
}

/** The graph entries whose dynamic imports of on-demand bundles are removed (only those that change). */
export function withoutOnDemandEdges(bundles: Record<string, GraphBundle>): Record<string, GraphBundle> {
  const onDemand = new Set(
    Object.entries(bundles)
      .filter(([, b]) => b.origins?.some((o) => ON_DEMAND_MODULES.some((re) => re.test(`/${o}`))))
      .map(([name]) => name),
  );
  const changed: Record<string, GraphBundle> = {};
  for (const [name, bundle] of Object.entries(bundles)) {
    const dyn = bundle.dynamicImports;
    if (!dyn?.some((d) => onDemand.has(d))) continue;
    changed[name] = { ...bundle, dynamicImports: dyn.filter((d) => !onDemand.has(d)) };
  }
  return changed;
}

/** Registers the graph change with Qwik's Vite plugin (the same hook Qwik City uses to add its routes). */
export function onDemandChunks(): Plugin {
  return {
    name: 'admin-on-demand-chunks',
    configResolved(config) {
      const qwik = config.plugins.find((p) => p.name === 'vite-plugin-qwik') as
        | (Plugin & { api?: QwikViteApi })
        | undefined;
      if (!qwik?.api?.registerBundleGraphAdder)
        throw new Error('on-demand-chunks: Qwik’s Vite plugin has no bundle-graph hook');
      qwik.api.registerBundleGraphAdder((manifest: { bundles: Record<string, GraphBundle> }) =>
        withoutOnDemandEdges(manifest.bundles),
      );
    },
  };
}
