import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import type { WriteEffects } from '../../ports/write-effects.js';
import { createImagesRepository } from './images.repository.js';
import { createImagesService } from './images.service.js';
import { mediaRoutes } from './media.routes.js';
import { createMediaService } from './media.service.js';
import { staticImagesRoutes } from './static-images.routes.js';
import { createVariantsService } from './variants.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const mediaServices = (deps: ServiceDeps) => {
  const { imageVariantWidths, maxImagePixels, maxUploadBytes } = deps.settings;
  const variants = createVariantsService({ ...deps, presets: imageVariantWidths, maxImagePixels });
  // Looked up at call time: webhooks is built after this feature.
  const effects: WriteEffects = {
    activity: (event) => deps.services.activity.inWrite(event),
    webhook: (type, data, options) => deps.services.webhooks.inWrite(type, data, options),
  };
  return {
    images: createImagesService({ ...deps, maxUploadBytes, maxImagePixels, effects }),
    variants,
    media: createMediaService({ ...deps, variants, effects }),
  };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof mediaServices> {}
}

/** Images: uploads, the media library, serving originals and their variants. */
export const mediaFeature = defineFeature({
  repositories: (kit) => ({ images: createImagesRepository(kit) }),
  services: mediaServices,
  routes: [...mediaRoutes, ...staticImagesRoutes],
});
