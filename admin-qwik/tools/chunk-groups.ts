import type { Plugin } from 'vite';

/**
 * Bundles that group Qwik's segments by screen instead of one file per
 * segment (Qwik's default: dozens of files of 0.1 to 3 KB, each compressed on
 * its own, so their gzip headers and unshared dictionaries add up). A group
 * holds only what its screens need together, so no screen fetches another's
 * code:
 *
 * - `article-editor`: the editor's own components (components/articles, the
 *   preview component), visible tasks included; the article list's filters
 *   and bulk actions stay apart so that the list does not fetch the editor;
 * - `shell`: the frame every screen draws (layout, header, navigation, route
 *   announcer, colour-mode switch, icons, loading and error notices,
 *   lib/screens.ts, which the navigation and the icons share: left out, it
 *   made a cycle of chunks, and lib/catalog.ts, whose entries name the
 *   catalogue screens' icons and which the navigation reads: left out, its
 *   chunk and the shell imported each other and its entries read an icon
 *   before the shell had defined it);
 * - `ui`: the small form pieces most screens use (form errors and status,
 *   the confirm button, the copy field, the secret card). It imports the
 *   shell's icons; the shell must never import it, or the two make a cycle.
 *
 * Applied as Rollup's `manualChunks` in the client build only, before Qwik's
 * own placement (which applies to everything else); the server build, which
 * renders the static pages, keeps Rollup's defaults.
 */
const GROUPS: [RegExp, string][] = [
  [
    /[\\/]src[\\/]components[\\/](articles[\\/](?!article-list-filters|bulk-actions)|ui[\\/]markdown-preview)/,
    'article-editor',
  ],
  [
    /[\\/]src[\\/](components[\\/](layout|icons|status)[\\/]|components[\\/]router-head|routes[\\/]layout\.tsx|lib[\\/](screens|color-mode|catalog)\.ts)/,
    'shell',
  ],
  [/[\\/]src[\\/]components[\\/]ui[\\/](form-error|confirm-button|copy-field|secret-card)\./, 'ui'],
];

export function chunkGroup(id: string): string | null {
  for (const [re, name] of GROUPS) if (re.test(id)) return name;
  return null;
}

/** The groups in the client build (the admin's second, server build for static generation is left alone). */
export function chunkGroups(): Plugin {
  let ssr = false;
  return {
    name: 'admin-chunk-groups',
    configResolved(config) {
      ssr = !!config.build.ssr;
    },
    outputOptions(options) {
      if (ssr) return null;
      const qwik = options.manualChunks;
      if (qwik && typeof qwik !== 'function') throw new Error('chunk-groups: manualChunks must be a function');
      return { ...options, manualChunks: (id, meta) => chunkGroup(id) ?? qwik?.(id, meta) };
    },
  };
}
