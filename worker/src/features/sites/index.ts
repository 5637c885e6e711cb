// What other features may use of sites; its schemas (site.schema.ts) are the other door, shared with the admin.
export { siteArticleUrl, withoutTrailingSlashes } from './article-url.js';
export type { Site } from './sites.port.js';
