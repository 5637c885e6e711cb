import * as z from 'zod';
import { TimestampSchema } from '../../wire/common.schema.js';

export const DEFAULT_PREVIEW_SECONDS = 7 * 24 * 3600;
export const MIN_PREVIEW_SECONDS = 60;
export const MAX_PREVIEW_SECONDS = 30 * 24 * 3600;

export const CreatePreviewSchema = z.object({
  expiresInSeconds: z
    .number({ error: 'expiresInSeconds must be a number' })
    .int('expiresInSeconds must be a whole number')
    .min(MIN_PREVIEW_SECONDS, `expiresInSeconds must be at least ${MIN_PREVIEW_SECONDS}`)
    .max(MAX_PREVIEW_SECONDS, `expiresInSeconds must be at most ${MAX_PREVIEW_SECONDS} (30 days)`)
    .optional()
    .default(DEFAULT_PREVIEW_SECONDS),
});

/** A preview token in a path: 256 random bits, base64url; anything else names no link (404). */
export const PreviewTokenParamSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const PreviewLinkSchema = z
  .object({
    /** `{PUBLIC_URL}/v1/preview/{token}`: anyone holding it reads the article until `expiresAt`. */
    url: z.url(),
    expiresAt: TimestampSchema,
  })
  .meta({ id: 'PreviewLink' });
export type PreviewLinkDto = z.output<typeof PreviewLinkSchema>;
