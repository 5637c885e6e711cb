import { createAccountsService } from '../core/accounts/accounts.service.js';
import { createArticlesService } from '../core/articles/articles.service.js';
import { createImagesService } from '../core/media/images.service.js';
import type { AppDeps } from './deps.js';

/** The core services, built once from the ports. */
export function buildServices(deps: AppDeps) {
  const logError = (message: string, err: unknown) => deps.logger.error(message, err);
  return {
    accounts: createAccountsService({ ...deps, publicUrl: deps.settings.publicUrl }),
    articles: createArticlesService({ ...deps, logError }),
    images: createImagesService({
      ...deps,
      logError,
      maxUploadBytes: deps.settings.maxUploadBytes,
      maxImagePixels: deps.settings.maxImagePixels,
    }),
  };
}

export type Services = ReturnType<typeof buildServices>;
