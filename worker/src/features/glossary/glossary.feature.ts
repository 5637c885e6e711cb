import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import type { TableRules } from '../../ports/table-export.js';
import { IdSchema } from '../../wire/common.schema.js';
import { NameSlugSchema } from '../../wire/slug.js';
import { createGlossaryRepository } from './glossary.repository.js';
import { glossaryRoutes } from './glossary.routes.js';
import { CreateTermSchema } from './glossary.schema.js';
import { createGlossaryService } from './glossary.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const glossaryServices = (deps: ServiceDeps) => ({ glossary: createGlossaryService(deps) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof glossaryServices> {}
}

/** An imported term passes the API's own rules, as one created by a request would. */
const archiveRules: TableRules = {
  columns: {
    id: IdSchema,
    name: CreateTermSchema.shape.name,
    slug: NameSlugSchema,
    definition: CreateTermSchema.shape.definition,
  },
  unique: [['id'], ['slug']],
};

/** The glossary: terms and what they mean, which the sites' frontends explain their words with. */
export const glossaryFeature = defineFeature({
  repositories: (kit) => ({ glossary: createGlossaryRepository(kit) }),
  // Editors' work, like tags: exported and imported with the content.
  tables: { glossaryTerms: { export: true, rules: archiveRules } },
  services: glossaryServices,
  routes: glossaryRoutes,
});
