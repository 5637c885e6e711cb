/** One delivery request: a POST of `body` with `headers`. */
export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback, private and link-local targets allowed. */
  allowPrivate: boolean;
}

/** An answer (any status: the caller decides), or why none came. */
export type OutboundResult = { ok: true; status: number } | { ok: false; error: string };

/**
 * Sends webhook requests. Follows no redirect (a 3xx is an answer like any
 * other), and refuses targets on special addresses (core/domain/target-address.ts)
 * unless allowed: on Node after resolving the name, connecting to the very
 * address it checked; on Workers from the URL, the platform reaching only
 * the public internet.
 */
export interface WebhookTransport {
  /** Why this URL may not be a target (its host, or what it resolves to where that can be known), or null. */
  vet(url: string, allowPrivate: boolean): Promise<string | null>;
  post(request: OutboundRequest): Promise<OutboundResult>;
}
