import { defineFeature } from '../../app/feature.js';
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
    return {
      images: createImagesService({ ...deps, maxUploadBytes, maxImagePixels }),
      variants,
      media: createMediaService({ ...deps, variants }),
    };
  },
  routes: [...mediaRoutes, ...staticImagesRoutes],
});
