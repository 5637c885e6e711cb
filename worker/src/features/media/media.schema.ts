import * as z from 'zod';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { IdSchema } from '../articles/article.schema.js';

/** `GET /v1/media`: `?articleId=` and `?q=` (text the filename contains, taken literally). */
export const MediaListQuerySchema = PageQuerySchema.extend({
  articleId: IdSchema.optional(),
  q: z.string().min(1, 'q must not be empty').max(48, 'q must be at most 48 characters').optional(),
});

export type MediaListQuery = z.output<typeof MediaListQuerySchema>;
