import type { AssetServer } from '../../ports/runtime.js';

/**
 * The ASSETS binding, with the SPA fallback done here rather than by
 * `not_found_handling = "single-page-application"`: page paths (no file
 * extension) get the app shell, but a missing file stays a 404, as on Node.
 */
export function createWorkersAssetServer(assets: Fetcher): AssetServer {
  return {
    async fetch(request: Request): Promise<Response> {
      const response = await assets.fetch(request);
      const { pathname } = new URL(request.url);
      const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
      if (response.status !== 404 || lastSegment.includes('.')) return response;
      return assets.fetch(new Request(new URL('/', request.url), { method: request.method, headers: request.headers }));
    },
  };
}
