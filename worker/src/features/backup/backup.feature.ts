import { defineFeature } from '../../feature-api/feature.js';
import { createBackupRepository } from './backup.repository.js';
import { backupRoutes } from './backup.routes.js';
import { type BackupService, createBackupService } from './backup.service.js';

declare module '../../http/env.js' {
  interface Services {
    backup: BackupService;
  }
}

/** Export and import of the whole installation's content, the same archive on both targets. */
export const backupFeature = defineFeature({
  repositories: (kit, tableExports) => ({ backup: createBackupRepository(kit, tableExports) }),
  services: (deps) => {
    const { maxUploadBytes, maxImagePixels } = deps.settings;
    return { backup: createBackupService({ ...deps, maxUploadBytes, maxImagePixels }) };
  },
  routes: backupRoutes,
});
