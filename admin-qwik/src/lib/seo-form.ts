/**
 * The API's SEO limits (seo.schema.ts), for the fields' maxLength and counts. Apart from lib/seo.ts (the
 * API's schema, zod) so that the SEO panel can draw without loading zod: the check is imported when a
 * save needs it.
 */
export const SEO_LIMITS = { metaTitle: 200, metaDescription: 500, canonicalUrl: 2048, ogImage: 2048 } as const;
