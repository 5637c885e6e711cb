/**
 * A webhook endpoint for the API suites, the same interface on both
 * targets: a Node HTTP server on Node (webhook-receiver.node.ts), one
 * started by the workers project's global setup and reached over HTTP from
 * workerd (test/workers/support/remote-receiver.ts). No Node imports here.
 */

export interface ReceivedWebhook {
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  /** A URL of its own: what arrives there is recorded apart from other tests'. */
  url: string;
  /** Everything that arrived at `url`, oldest first. */
  received(): Promise<ReceivedWebhook[]>;
  /** Answer the next requests with these statuses, in order; 204 after them. 0 (Node only): never answer. */
  answer(statuses: number[]): Promise<void>;
}

/** The shared part of both implementations: one endpoint's queue of answers and its record. */
export class Endpoint {
  readonly log: ReceivedWebhook[] = [];
  private statuses: number[] = [];

  answer(statuses: number[]): void {
    this.statuses = [...statuses];
  }

  take(headers: Record<string, string>, body: string): number {
    const status = this.statuses.shift() ?? 204;
    this.log.push({ headers, body, status });
    return status;
  }
}
