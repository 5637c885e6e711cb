import { notFound } from '../../core/domain/errors.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { CreateSiteInput, SiteDto, UpdateSiteInput } from './site.schema.js';
import type { Site, SitePatch } from './sites.port.js';

export interface SitesDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  /** After a site is created, changed or deleted (the allowed CORS origins follow the sites). */
  changed?: () => void;
}

export const toSiteDto = (site: Site): SiteDto => ({
  id: site.id,
  name: site.name,
  baseUrl: site.baseUrl,
  description: site.description,
  urlPattern: site.urlPattern,
  previewUrl: site.previewUrl,
  createdAt: site.createdAt.toISOString(),
});

/** The sites articles are published to (docs/api.md#sites-and-authors). */
export function createSitesService({ repos, clock, ids, changed = () => {} }: SitesDeps) {
  return {
    async list(limit: number, cursor?: string): Promise<Page<SiteDto>> {
      const rows = await repos.sites.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toSiteDto);
    },

    async get(id: string): Promise<SiteDto> {
      const site = await repos.sites.findById(id);
      if (!site) throw notFound();
      return toSiteDto(site);
    },

    async create(input: CreateSiteInput): Promise<SiteDto> {
      const now = clock.now();
      const site: Site = {
        id: ids.newId(),
        name: input.name,
        baseUrl: input.baseUrl,
        description: input.description,
        urlPattern: input.urlPattern,
        previewUrl: input.previewUrl,
        createdAt: now,
        updatedAt: now,
      };
      await repos.sites.create(site);
      changed();
      return toSiteDto(site);
    },

    async update(id: string, input: UpdateSiteInput): Promise<SiteDto> {
      const patch: SitePatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.baseUrl !== undefined) patch.baseUrl = input.baseUrl;
      if (input.description !== undefined) patch.description = input.description;
      if (input.urlPattern !== undefined) patch.urlPattern = input.urlPattern;
      if (input.previewUrl !== undefined) patch.previewUrl = input.previewUrl;
      // A patch that names no field changes nothing, `updatedAt` included.
      const site =
        Object.keys(patch).length === 0
          ? await repos.sites.findById(id)
          : await repos.sites.update(id, patch, clock.now());
      if (!site) throw notFound();
      changed();
      return toSiteDto(site);
    },

    /** 409 while articles use the site. */
    async delete(id: string): Promise<void> {
      if (!(await repos.sites.delete(id))) throw notFound();
      changed();
    },
  };
}

export type SitesService = ReturnType<typeof createSitesService>;
