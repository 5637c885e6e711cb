import type { Repositories } from '../../ports/repositories.js';
import type { Clock } from '../../ports/runtime.js';

export interface SiteOriginsDeps {
  repos: Repositories;
  clock: Clock;
  /** CORS_ORIGINS: `any` for `*`, else origins allowed besides the sites'. */
  configured: { any: boolean; origins: string[] };
  logError: (message: string, err: unknown) => void;
}

/** How long this process trusts its copy of the sites' origins: what another instance or isolate wrote shows up within this. */
export const SITE_ORIGINS_TTL_MS = 60_000;
/** Sites read per page, and at most this many pages: a bound on what one refresh may cost. */
const PAGE = 100;
const MAX_PAGES = 100;

const originOf = (url: string): string | null => {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

/**
 * Which browser origins may call the API (docs/api.md#cross-origin): every
 * origin of CORS_ORIGINS (or any with `*`), and the origin of every site's
 * `baseUrl`. The sites' origins are read from the database at most once a
 * minute per process (per isolate on Workers), and forgotten at once when a
 * site is written here; another instance or isolate sees the change within
 * the minute.
 */
export function createSiteOrigins(deps: SiteOriginsDeps) {
  const configured = new Set(deps.configured.origins);
  let cached: { origins: Set<string>; until: number } | null = null;
  let loading: Promise<Set<string>> | null = null;
  // Bumped by every forget(): a load that started before it is not kept.
  let generation = 0;

  async function load(): Promise<Set<string>> {
    const origins = new Set<string>();
    let beforeId: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const sites = await deps.repos.sites.list({ limit: PAGE, beforeId });
      for (const site of sites) {
        const origin = originOf(site.baseUrl);
        if (origin) origins.add(origin);
      }
      if (sites.length < PAGE) break;
      beforeId = sites[sites.length - 1]!.id;
    }
    return origins;
  }

  async function siteOrigins(): Promise<Set<string>> {
    const now = deps.clock.now().getTime();
    if (cached && cached.until > now) return cached.origins;
    if (!loading) {
      const started = generation;
      loading = load()
        .then((origins) => {
          if (started === generation) cached = { origins, until: now + SITE_ORIGINS_TTL_MS };
          return origins;
        })
        .finally(() => {
          loading = null;
        });
    }
    return loading;
  }

  return {
    /** CORS_ORIGINS is `*`: every origin, answered with `Access-Control-Allow-Origin: *`. */
    anyOrigin: deps.configured.any,

    /** Whether a page on `origin` may call the API. A database that does not answer allows nobody extra. */
    async allows(origin: string): Promise<boolean> {
      if (deps.configured.any || configured.has(origin)) return true;
      try {
        return (await siteOrigins()).has(origin);
      } catch (err) {
        deps.logError('site origins not read', err);
        return false;
      }
    },

    /** A site was created, changed or deleted here: read them again on the next cross-origin request. */
    forget(): void {
      generation += 1;
      cached = null;
    },
  };
}

export type SiteOrigins = ReturnType<typeof createSiteOrigins>;
