import { createAccountsService } from '../core/accounts/accounts.service.js';
import { createApiKeysService } from '../core/accounts/api-keys.service.js';
import { createInvitationsService } from '../core/accounts/invitations.service.js';
import { createPasswordResetService } from '../core/accounts/password-reset.service.js';
import { createUsersService } from '../core/accounts/users.service.js';
import { createActivityService, SYSTEM } from '../core/activity/activity.service.js';
import { createArticlesService } from '../core/articles/articles.service.js';
import { createAuthorsService } from '../core/content/authors.service.js';
import { createSitesService } from '../core/content/sites.service.js';
import type { PurgeRun } from '../core/domain/purge.entities.js';
import { createImagesService } from '../core/media/images.service.js';
import { createMediaService } from '../core/media/media.service.js';
import { createVariantsService } from '../core/media/variants.service.js';
import {
  createPurgeService,
  type PurgeDeps,
  purgeRunDetails,
  runScheduledPurge,
  toPurgeRunDto,
} from '../core/purge/purge.service.js';
import { createSyndicationService } from '../core/syndication/syndication.service.js';
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
