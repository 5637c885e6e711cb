import type { AssetServer } from '../../ports/runtime.js';

// Qwik's content-hashed output keeps the asset layer's `immutable` (dist/_headers).
const HASHED = /^\/(build|assets)\//;

/**
 * The ASSETS binding, for what the Worker serves itself (wrangler.toml's
 * `run_worker_first`: the admin's pages), with the SPA fallback done here
 * rather than by `not_found_handling = "single-page-application"`: page
 * paths (no file extension) get the app shell, but a missing file stays a
 * 404, as on Node. The shell is `no-cache`, as the Node target sends it:
 * revalidated on every load, so a new build is picked up at once.
 */
export function createWorkersAssetServer(assets: Fetcher): AssetServer {
  const page = (res: Response, pathname: string) => {
    if (HASHED.test(pathname)) return res;
    const copy = new Response(res.body, res);
    copy.headers.set('Cache-Control', 'no-cache');
    return copy;
  };
  return {
    async fetch(request: Request): Promise<Response> {
      const response = await assets.fetch(request);
      const { pathname } = new URL(request.url);
      const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
      if (response.status !== 404 || lastSegment.includes('.')) return page(response, pathname);
      await response.body?.cancel();
      const shell = await assets.fetch(
        new Request(new URL('/', request.url), { method: request.method, headers: request.headers }),
      );
      return page(shell, pathname);
    },
  };
}
