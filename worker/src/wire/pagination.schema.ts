import * as z from 'zod';

/**
 * `?limit=` and `?cursor=` for every list. Strict on purpose: `1abc`, `1e309`,
 * `-1`, `0`, repeated parameters (which arrive as arrays) are all 400s.
 */
export const PageQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, 'limit must be a whole number from 1 to 100')
    .transform(Number)
    .refine((n) => n <= 100, 'limit must be a whole number from 1 to 100')
    .optional()
    .transform((n) => n ?? 20)
    // Described as the number it is (http/openapi.ts); checked as the text it arrives as.
    .meta({ type: 'integer', minimum: 1, maximum: 100, default: 20 }),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, 'cursor is not one this server gave out')
    .optional(),
});

export type PageQuery = z.output<typeof PageQuerySchema>;

/** One page of a list, newest first; `nextCursor` is null on the last page. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
