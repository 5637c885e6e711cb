import * as z from 'zod';

/** What a front end puts in a page head: Open Graph properties, JSON-LD (also as script-safe text), robots. */
export const StructuredDataSchema = z
  .object({
    robots: z.enum(['index, follow', 'noindex']),
    canonicalUrl: z.string().nullable(),
    openGraph: z.record(z.string(), z.string()),
    jsonLd: z.record(z.string(), z.unknown()),
    jsonLdText: z.string(),
  })
  .meta({ id: 'StructuredData' });
export type StructuredDataDto = z.output<typeof StructuredDataSchema>;
