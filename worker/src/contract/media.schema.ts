import * as z from 'zod';
import { IdSchema } from './article.schema.js';
import { PageQuerySchema } from './pagination.schema.js';

/** `GET /v1/media`: `?articleId=` and `?q=` (text the filename contains, taken literally). */
export const MediaListQuerySchema = PageQuerySchema.extend({
  articleId: IdSchema.optional(),
  q: z.string().min(1, 'q must not be empty').max(48, 'q must be at most 48 characters').optional(),
});

export type MediaListQuery = z.output<typeof MediaListQuerySchema>;
