// What other features may use of redirects (an import checks rows and makes each key again); its schemas are the other door.
export { redirectKey } from './redirect-key.js';
export { pointsToItself } from './redirects.service.js';
