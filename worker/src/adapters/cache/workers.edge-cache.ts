import type { EdgeCache } from '../../ports/edge-cache.js';
import type { SystemStateRepository } from '../../ports/repositories.js';
import type { Clock, Logger } from '../../ports/runtime.js';

/** Every public answer this Worker keeps carries this tag: one purge by tag reaches all of them, everywhere. */
export const EDGE_CACHE_TAG = 'edge-cms-public';
/**
 * How long an isolate answers from the generation it last read before it
 * reads it again: a hit is then one Cache API read instead of two (the
 * generation's and the answer's). A write in another isolate of the same
 * data centre reaches this one within it (docs/caching.md).
 */
export const GENERATION_REFRESH_MS = 1000;
/** The system_state row that says a purge is owed (a failed one, for the scheduler to retry). */
const PURGE_OWED = 'edgeCache.purgeOwed';

export interface PurgeTarget {
  zoneId: string;
  apiToken: string;
  /** Cloudflare's API; tests point it at a receiver of their own. */
  apiBase?: string;
}

export interface WorkersEdgeCacheOptions {
  cache: Cache;
  /** The origin every key is made under (PUBLIC_URL): the same for requests and for the cron. */
  origin: string;
  ttlSeconds: number;
  purge: PurgeTarget | undefined;
  state: SystemStateRepository;
  clock: Clock;
  logger: Logger;
  newId(): string;
  fetch?: typeof fetch;
  /** GENERATION_REFRESH_MS unless given. */
  generationRefreshMs?: number;
}

/**
 * The Workers Cache API as the edge cache (docs/caching.md). The Cache API
 * is per data centre. Each data centre keeps a generation (itself an entry of
 * the cache); answers are stored under it, and a write there replaces it
 * with the write's D1 bookmark, so the next read there misses and, on a
 * read replica, starts at least as fresh as that write. Each isolate keeps
 * the generation it last read for GENERATION_REFRESH_MS (its own writes
 * replace it at once), so a hit is one Cache API read. Other data centres
 * keep theirs for `ttlSeconds`, or until the purge by tag (zone id and API
 * token configured) reaches them.
 */
export function createWorkersEdgeCache(options: WorkersEdgeCacheOptions): EdgeCache {
  const { cache, ttlSeconds, state, clock, logger } = options;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const base = `${new URL(options.origin).origin}/__edge-cache`;
  const generationKey = `${base}/generation`;
  const entryKey = (url: string, generation: string) => `${base}/${encodeURIComponent(generation)}${url}`;

  const refreshMs = options.generationRefreshMs ?? GENERATION_REFRESH_MS;
  /** The generation this isolate last read or wrote, and when. */
  let known: { generation: string; at: number } | undefined;

  const setGeneration = async (generation: string) => {
    known = { generation, at: clock.now().getTime() };
    // Kept as long as the cache keeps anything; if it is evicted, a new one is made and nothing older matches.
    await cache.put(generationKey, new Response(generation, { headers: { 'Cache-Control': 'max-age=31536000' } }));
  };

  async function purgeEverywhere(): Promise<boolean> {
    const target = options.purge;
    if (!target) return true;
    try {
      const res = await doFetch(
        `${target.apiBase ?? 'https://api.cloudflare.com/client/v4'}/zones/${target.zoneId}/purge_cache`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${target.apiToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ tags: [EDGE_CACHE_TAG] }),
        },
      );
      await res.body?.cancel();
      if (res.ok) return true;
      logger.error('edge cache purge refused', new Error(`purge_cache answered ${res.status}`));
    } catch (err) {
      logger.error('edge cache purge failed', err);
    }
    return false;
  }

  const owe = (value: 'owed' | 'paid') => state.save(PURGE_OWED, value, clock.now().getTime(), clock.now());

  async function current() {
    const now = clock.now().getTime();
    let generation = known && now - known.at < refreshMs ? known.generation : undefined;
    if (!generation) {
      generation = await (await cache.match(generationKey))?.text();
      if (generation) known = { generation, at: now };
      else {
        generation = `r.${options.newId()}`;
        await setGeneration(generation);
      }
    }
    return { generation, readAfter: generation.startsWith('b.') ? generation.slice(2) : null };
  }

  return {
    keepsFiles: options.purge !== undefined,
    async lookupFile(url) {
      const { generation, readAfter } = await current();
      const hit = await cache.match(entryKey(url, generation));
      return { hit, generation, readAfter };
    },
    async storeFile(url, generation, answer) {
      const headers = new Headers({ 'Cache-Control': 'max-age=31536000', 'Cache-Tag': EDGE_CACHE_TAG });
      for (const name of ['content-type', 'content-length', 'content-disposition', 'etag']) {
        const value = answer.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      await cache.put(entryKey(url, generation), new Response(answer.body, { headers }));
    },
    async lookup(url) {
      const { generation, readAfter } = await current();
      const found = await cache.match(entryKey(url, generation));
      const etag = found?.headers.get('etag');
      if (!found || !etag) {
        await found?.body?.cancel();
        return { hit: undefined, generation, readAfter };
      }
      // The stored bytes go out as they are: reading them into a string and back was most of a list hit's own work.
      const hit = { body: found.body, contentType: found.headers.get('content-type') ?? 'application/json', etag };
      return { hit, generation, readAfter };
    },
    async store(url, generation, answer) {
      if (ttlSeconds === 0) return;
      const headers = {
        'Content-Type': answer.contentType,
        ETag: answer.etag,
        'Cache-Control': `max-age=${ttlSeconds}`,
        'Cache-Tag': EDGE_CACHE_TAG,
      };
      await cache.put(entryKey(url, generation), new Response(answer.body, { headers }));
    },
    async changed(bookmark) {
      await setGeneration(bookmark ? `b.${bookmark}` : `r.${options.newId()}`);
    },
    async purge() {
      if (options.purge && !(await purgeEverywhere())) await owe('owed');
    },
    async retry() {
      if (!options.purge || (await state.get(PURGE_OWED))?.value !== 'owed') return 'idle';
      if (!(await purgeEverywhere())) return 'failed';
      await owe('paid');
      return 'purged';
    },
  };
}
