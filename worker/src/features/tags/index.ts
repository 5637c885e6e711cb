// What other features may use of tags; its schemas (tags.schema.ts) are the other door, shared with the admin.
export { createArticleTagLinks, tagRefsIn } from './article-tags.repository.js';
