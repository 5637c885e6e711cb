import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createBackupRepository } from './backup.repository.js';
import { backupRoutes } from './backup.routes.js';
import { createBackupService } from './backup.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const backupServices = (deps: ServiceDeps) => {
  const { maxUploadBytes, maxImagePixels } = deps.settings;
  return { backup: createBackupService({ ...deps, maxUploadBytes, maxImagePixels }) };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof backupServices> {}
}

/** Export and import of the whole installation's content, the same archive on both targets. */
export const backupFeature = defineFeature({
  repositories: (kit, tableExports) => ({ backup: createBackupRepository(kit, tableExports) }),
  services: backupServices,
  routes: backupRoutes,
});
