import type { Context } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { errorResponse } from './errors.js';

/** The order methods are named in `Allow`. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The answer to a request no route took: a 405 with `Allow` when the path is
 * a route's under another method (RFC 9110, 15.5.6), else the uniform 404.
 * Runs only once routing found nothing, so matched requests pay nothing for
 * it. Routes are `{ method, path }` with OpenAPI's `{name}` parameters;
 * Hono's own router matches the path, so what counts as "the same path" is
 * what routing itself would have matched. A GET route answers HEAD too
 * (Hono does); preflights never get here (cors.ts answers every OPTIONS with
 * Access-Control-Request-Method first).
 */
export function unmatchedAnswer(routes: readonly { method: string; path: string }[]) {
  const router = new TrieRouter<string>();
  for (const r of routes) router.add('ALL', r.path.replace(/\{(\w+)\}/g, ':$1'), r.method.toUpperCase());
  return (c: Context): Response => {
    const [found] = router.match(c.req.method, c.req.path);
    const methods = new Set(found.map(([method]) => method));
    if (methods.size === 0) return errorResponse(c, 'not_found', 'Not found');
    if (methods.has('GET')) methods.add('HEAD');
    const allow = METHODS.filter((m) => methods.has(m)).join(', ');
    c.header('Allow', allow);
    return errorResponse(c, 'method_not_allowed', `Method not allowed: this path answers ${allow}`);
  };
}
