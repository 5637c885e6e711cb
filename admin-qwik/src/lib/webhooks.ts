import './zod-csp';

export {
  WEBHOOK_EVENT_TYPES,
  type WebhookAttemptDto,
  type WebhookDto,
  type WebhookEventType,
} from '../../../worker/src/features/webhooks/webhook.schema';
