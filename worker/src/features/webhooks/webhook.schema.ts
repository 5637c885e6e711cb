import * as z from 'zod';
import { isHttpUrl, TimestampSchema } from '../../wire/common.schema.js';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../wire/text.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../wire/vocabulary.js';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

/** What `POST /v1/webhooks/{id}/test` sends: to that endpoint only, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The signing secret: `whsec_` and the base64 of the key (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** How many endpoints one installation may have: every event fans out to each, in one write. */
export const MAX_WEBHOOKS = 20;

const UrlSchema = z
  .string({ error: 'url must be a string' })
  .trim()
  .max(2048, 'url must be at most 2048 characters')
  .refine(isHttpUrl, 'url must be an absolute http(s) URL')
  .refine((u) => !isHttpUrl(u) || !/^[a-z]+:\/\/[^/?#]*@/i.test(u), 'url must not carry a user name or password');

const EventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `each event must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }), {
    error: 'events must be an array',
  })
  .min(1, 'events must name at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((e) => new Set(e).size === e.length, 'events must not repeat an event');

const DescriptionSchema = z
  .string({ error: 'description must be a string' })
  .trim()
  .max(500, 'description must be at most 500 characters')
  .refine((t) => !CONTROL_CHARS.test(t), 'description must not contain control characters')
  .refine((t) => !LONE_SURROGATE.test(t), 'description must be valid Unicode (no lone surrogates)')
  .nullable();

export const CreateWebhookSchema = z.object({
  url: UrlSchema,
  events: EventsSchema,
  description: DescriptionSchema.optional(),
});
export type CreateWebhookInput = z.output<typeof CreateWebhookSchema>;

export const UpdateWebhookSchema = z.object({
  url: UrlSchema.optional(),
  events: EventsSchema.optional(),
  description: DescriptionSchema.optional(),
  /** A paused endpoint (false) is queued nothing new; what was queued for it waits until it is active again. */
  active: z.boolean({ error: 'active must be true or false' }).optional(),
});
export type UpdateWebhookInput = z.output<typeof UpdateWebhookSchema>;

export const WebhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string().nullable(),
    active: z.boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Webhook' });
export type WebhookDto = z.output<typeof WebhookSchema>;

/** The one answer that carries an endpoint's signing secret. */
export const CreatedWebhookSchema = z.object({
  webhook: WebhookSchema,
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]{43}=$/),
});
export type CreatedWebhookDto = z.output<typeof CreatedWebhookSchema>;

export const ATTEMPT_OUTCOMES = ['delivered', 'retrying', 'failed'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One try at delivering one event to one endpoint. */
export const WebhookAttemptSchema = z
  .object({
    id: z.uuid(),
    deliveryId: z.uuid(),
    /** The message id: the `webhook-id` header, the same on every retry. */
    eventId: z.uuid(),
    type: z.string(),
    /** 1 for the first try. */
    attempt: z.number().int(),
    at: TimestampSchema,
    /** `delivered` (a 2xx answer), `retrying` (will be tried again at `nextAttemptAt`), `failed` (given up). */
    status: z.enum(ATTEMPT_OUTCOMES),
    /** The endpoint's answer; null when none came (refused target, timeout, connection error). */
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int(),
    nextAttemptAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttemptDto = z.output<typeof WebhookAttemptSchema>;
