import { expect } from 'vitest';
import { scheduledJobs } from '../../worker/src/app/services.js';
import type { ApiHarness } from './api-harness.js';
import { verifyStandardWebhook } from './standard-webhooks.js';
import type { ReceivedWebhook } from './webhook-receiver.js';

export interface Subscription {
  webhook: { id: string; url: string; [k: string]: unknown };
  secret: string;
}

/** An endpoint at `url` for these events, through the API. */
export async function subscribe(
  api: ApiHarness,
  token: string,
  url: string,
  events: string[],
  description?: string,
): Promise<Subscription> {
  const res = await api.request('/v1/webhooks', {
    method: 'POST',
    token,
    json: { url, events, ...(description !== undefined && { description }) },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Subscription;
}

export interface Message {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Every message is signed as Standard Webhooks says (checked at the harness clock's time); their parsed bodies. */
export async function verified(api: ApiHarness, received: ReceivedWebhook[], secret: string): Promise<Message[]> {
  const now = Math.floor(api.clock.now().getTime() / 1000);
  for (const r of received) {
    expect(await verifyStandardWebhook(secret, r.headers, r.body, now)).toEqual({ ok: true });
    expect(r.headers['content-type']).toMatch(/^application\/json/);
  }
  return received.map((r) => JSON.parse(r.body) as Message);
}

/** One tick of the scheduled jobs, as the cron or the Node timer runs them, at the harness clock's time. */
export const runJobs = (api: ApiHarness) => scheduledJobs(api.deps)(api.clock.now());
