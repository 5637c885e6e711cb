import type { UpdateFeed } from '../../ports/update-feed.js';

/**
 * The feed over HTTP(S) with fetch: works on Workers and on Node. Only
 * http(s) URLs; redirects are followed by fetch (a redirect cannot change
 * what verifies, since everything read is checked against signed data).
 */
export function createHttpUpdateFeed(url: string, fetchImpl: typeof fetch = fetch): UpdateFeed {
  const feedUrl = new URL(url);
  if (feedUrl.protocol !== 'https:' && feedUrl.protocol !== 'http:')
    throw new Error(`update feed must be http(s): ${url}`);
  return {
    url: feedUrl.href,
    get(target, signal) {
      const u = new URL(target);
      if (u.protocol !== 'https:' && u.protocol !== 'http:')
        return Promise.reject(new Error(`not an http(s) URL: ${target}`));
      return fetchImpl(u.href, {
        signal,
        redirect: 'follow',
        headers: { accept: 'application/json, application/gzip, */*' },
      });
    },
  };
}
