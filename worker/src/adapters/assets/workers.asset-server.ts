import type { AssetServer } from '../../ports/runtime.js';

// Qwik's content-hashed output keeps the asset layer's `immutable` (dist/_headers).
const HASHED = /^\/(build|assets)\//;

/**
 * The ASSETS binding, for what the Worker serves itself (wrangler.toml's
 * `run_worker_first`: the admin's pages and unknown paths). Every admin screen is a
 * prerendered page, so an unknown page path, like a missing file, gets the
 * binding's own answer (`not_found_handling = "404-page"`): 404.html with
 * status 404, as on Node, never the dashboard. Pages are `no-cache`, as the
 * Node target sends them: revalidated on every load, so a new build is
 * picked up at once.
 */
export function createWorkersAssetServer(assets: Fetcher): AssetServer {
  return {
    async fetch(request: Request): Promise<Response> {
      const response = await assets.fetch(request);
      if (HASHED.test(new URL(request.url).pathname)) return response;
      const copy = new Response(response.body, response);
      copy.headers.set('Cache-Control', 'no-cache');
      return copy;
    },
  };
}
