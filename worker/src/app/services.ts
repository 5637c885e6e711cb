import { createAccountsService } from '../features/accounts/accounts.service.js';
import { createInvitationsService } from '../features/accounts/invitations.service.js';
import { createPasswordResetService } from '../features/accounts/password-reset.service.js';
import { createUsersService } from '../features/accounts/users.service.js';
import { createActivityService, SYSTEM } from '../features/activity/activity.service.js';
import { createApiKeysService } from '../features/api-keys/api-keys.service.js';
import { createArticlesService } from '../features/articles/articles.service.js';
import { createAuthorsService } from '../features/authors/authors.service.js';
import { createImagesService } from '../features/media/images.service.js';
import { createMediaService } from '../features/media/media.service.js';
import { createVariantsService } from '../features/media/variants.service.js';
import type { PurgeRun } from '../features/purge/purge.entities.js';
import {
  createPurgeService,
  type PurgeDeps,
  purgeRunDetails,
  runScheduledPurge,
  toPurgeRunDto,
} from '../features/purge/purge.service.js';
import { createSitesService } from '../features/sites/sites.service.js';
import { createSyndicationService } from '../features/syndication/syndication.service.js';
import type { AppDeps } from './deps.js';

/** What a purge needs, the same for a request and for the scheduler. */
export function purgeDeps(deps: AppDeps, dropVariants: (imageIds: string[]) => Promise<void>): PurgeDeps {
  return { ...deps, logError: (message, err) => deps.logger.error(message, err), dropVariants };
}

/**
 * What the Worker's cron handler and the Node timer both call
 * (docs/architecture.md#rule-6): runScheduledPurge over deps built outside
 * any request.
 */
export function scheduledPurge(deps: AppDeps): (now: Date) => Promise<PurgeRun | null> {
  const purge = scheduledPurgeDeps(deps);
  return (now) => runScheduledPurge(purge, now);
}

function scheduledPurgeDeps(deps: AppDeps): PurgeDeps {
  const variants = createVariantsService({
    ...deps,
    logError: (message, err) => deps.logger.error(message, err),
    presets: deps.settings.imageVariantWidths,
    maxImagePixels: deps.settings.maxImagePixels,
  });
  const activity = createActivityService({ ...deps, logError: (message, err) => deps.logger.error(message, err) });
  return {
    ...purgeDeps(deps, variants.clearForQuietly),
    recordPurgeActivity: (run) =>
      activity.record({
        actor: SYSTEM,
        action: 'media.purge',
        subject: { type: 'purgeRun', id: run.id },
        details: purgeRunDetails(toPurgeRunDto(run)),
      }),
  };
}

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
    activity: createActivityService({ ...deps, logError }),
    apiKeys: createApiKeysService(deps),
    accounts: createAccountsService({ ...deps, publicUrl: deps.settings.publicUrl }),
    passwordReset: createPasswordResetService({ ...deps, publicUrl: deps.settings.publicUrl }),
    users: createUsersService(deps),
    invitations: createInvitationsService({ ...deps, publicUrl: deps.settings.publicUrl }),
    articles: createArticlesService({ ...deps, logError, dropVariants: variants.clearForQuietly }),
    sites: createSitesService(deps),
    syndication: createSyndicationService({ ...deps, publicUrl: deps.settings.publicUrl }),
    authors: createAuthorsService(deps),
    images: createImagesService({
      ...deps,
      logError,
      maxUploadBytes: deps.settings.maxUploadBytes,
      maxImagePixels: deps.settings.maxImagePixels,
    }),
    variants,
    media: createMediaService({ ...deps, variants, logError }),
    purge: createPurgeService(purgeDeps(deps, variants.clearForQuietly)),
  };
}

export type Services = ReturnType<typeof buildServices>;
