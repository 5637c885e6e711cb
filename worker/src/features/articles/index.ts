// What other features may use of articles; its schemas (article.schema.ts, seo.schema.ts) are the other door, shared with the admin.
export { type ArticleEffectPorts, consequencesOf } from './article-changes.js';
export type { Article } from './articles.port.js';
