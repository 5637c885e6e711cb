import * as z from 'zod';
import { API_KEY_PREFIX, API_KEY_SCOPES, type ApiKeyScope } from '../../auth/api-key.js';
import { nameSchema, TimestampSchema } from '../../wire/common.schema.js';

export { API_KEY_PREFIX, API_KEY_SCOPES, type ApiKeyScope };

export const CreateApiKeySchema = z.object({
  name: nameSchema('name'),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `each scope must be one of ${API_KEY_SCOPES.join(', ')}` }), {
      error: 'scopes must be an array',
    })
    .min(1, 'scopes must name at least one scope')
    .max(API_KEY_SCOPES.length)
    .refine((s) => new Set(s).size === s.length, 'scopes must not repeat a scope'),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'expiresAt must be an ISO-8601 date and time' })
    .transform((s) => new Date(s))
    .nullable()
    .optional(),
});
export type CreateApiKeyInput = z.output<typeof CreateApiKeySchema>;

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    /** The key's first characters (`cms_ab12cd34`), enough to recognise it, useless to use it. */
    prefix: z.string().regex(/^cms_[0-9a-f]{8}$/),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    createdAt: TimestampSchema,
    lastUsedAt: TimestampSchema.nullable(),
    expiresAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyDto = z.output<typeof ApiKeySchema>;

/** The answer that carries a key's secret: the only one that ever does. */
export const CreatedApiKeySchema = z.object({
  apiKey: ApiKeySchema,
  secret: z.string().regex(/^cms_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/),
});
export type CreatedApiKeyDto = z.output<typeof CreatedApiKeySchema>;
