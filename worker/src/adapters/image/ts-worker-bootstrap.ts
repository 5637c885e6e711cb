/**
 * Runs a worker thread's TypeScript entry straight from the sources, as the
 * vitest `node` project does for the rest of the server: Node's own
 * transform (`stripTypeScriptTypes`, parameter properties included) in a
 * load hook, and `./x.js` imports resolved to `./x.ts`. The production
 * bundle (scripts/build-node.ts) starts its prebuilt `.mjs` instead.
 */
export const tsWorkerBootstrap = (entry: URL) => `
const { registerHooks, stripTypeScriptTypes } = require('node:module');
const { readFileSync } = require('node:fs');
const { fileURLToPath } = require('node:url');
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (err) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) return next(specifier.slice(0, -3) + '.ts', context);
      throw err;
    }
  },
  load(url, context, next) {
    if (!url.endsWith('.ts')) return next(url, context);
    const code = readFileSync(fileURLToPath(url), 'utf8');
    return { format: 'module', source: stripTypeScriptTypes(code, { mode: 'transform', sourceUrl: url }), shortCircuit: true };
  },
});
import(${JSON.stringify(entry.href)});
`;
