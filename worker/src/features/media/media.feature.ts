import { defineFeature } from '../../feature-api/feature.js';
import type { ActivityEvent } from '../../ports/write-effects.js';
import type { WebhooksService } from '../webhooks/index.js';
import { createImagesRepository } from './images.repository.js';
import { createImagesService, type ImagesService } from './images.service.js';
import { mediaRoutes } from './media.routes.js';
import { createMediaService, type MediaService } from './media.service.js';
import { staticImagesRoutes } from './static-images.routes.js';
import { createVariantsService, type VariantsService } from './variants.service.js';

declare module '../../http/env.js' {
  interface Services {
    images: ImagesService;
    variants: VariantsService;
    media: MediaService;
  }
}

/** Images: uploads, the media library, serving originals and their variants. */
export const mediaFeature = defineFeature({
  repositories: (kit) => ({ images: createImagesRepository(kit) }),
  services: (deps) => {
    const { imageVariantWidths, maxImagePixels, maxUploadBytes } = deps.settings;
    const variants = createVariantsService({ ...deps, presets: imageVariantWidths, maxImagePixels });
    // Looked up at call time: webhooks is built after this feature.
    const effects = {
      activity: (event: ActivityEvent) => deps.services.activity.inWrite(event),
      webhook: (...args: Parameters<WebhooksService['inWrite']>) => deps.services.webhooks.inWrite(...args),
    };
    return {
      images: createImagesService({ ...deps, maxUploadBytes, maxImagePixels, effects }),
      variants,
      media: createMediaService({ ...deps, variants, effects }),
    };
  },
  routes: [...mediaRoutes, ...staticImagesRoutes],
});
