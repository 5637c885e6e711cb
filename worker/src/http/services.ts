import { createAccountsService } from '../core/accounts/accounts.service.js';
import { createInvitationsService } from '../core/accounts/invitations.service.js';
import { createPasswordResetService } from '../core/accounts/password-reset.service.js';
import { createUsersService } from '../core/accounts/users.service.js';
import { createArticlesService } from '../core/articles/articles.service.js';
import { createImagesService } from '../core/media/images.service.js';
import { createMediaService } from '../core/media/media.service.js';
import { createVariantsService } from '../core/media/variants.service.js';
import type { AppDeps } from './deps.js';

/** The core services, built once from the ports. */
export function buildServices(deps: AppDeps) {
  const logError = (message: string, err: unknown) => deps.logger.error(message, err);
  const variants = createVariantsService({
    ...deps,
    logError,
    presets: deps.settings.imageVariantWidths,
    maxImagePixels: deps.settings.maxImagePixels,
  });
  return {
    accounts: createAccountsService({ ...deps, publicUrl: deps.settings.publicUrl }),
    passwordReset: createPasswordResetService({ ...deps, publicUrl: deps.settings.publicUrl }),
    users: createUsersService(deps),
    invitations: createInvitationsService({ ...deps, publicUrl: deps.settings.publicUrl }),
    articles: createArticlesService({ ...deps, logError, dropVariants: variants.clearForQuietly }),
    images: createImagesService({
      ...deps,
      logError,
      maxUploadBytes: deps.settings.maxUploadBytes,
      maxImagePixels: deps.settings.maxImagePixels,
    }),
    variants,
    media: createMediaService({ ...deps, variants, logError }),
  };
}

export type Services = ReturnType<typeof buildServices>;
