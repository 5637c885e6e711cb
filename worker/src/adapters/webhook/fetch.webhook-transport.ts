import { failureReason } from '../../core/domain/failure-reason.js';
import { hostRefusal, REFUSED_DELIVERY } from '../../core/domain/target-address.js';
import type { OutboundRequest, OutboundResult, WebhookTransport } from '../../ports/webhook-transport.js';

/**
 * Webhook requests on Workers: fetch, no redirects followed. A Worker cannot
 * resolve a name itself, so the target is judged from the URL (addresses and
 * local names); its fetch leaves through Cloudflare to the public internet,
 * which does not route to private, loopback or metadata addresses.
 */
export function createFetchWebhookTransport(fetcher: typeof fetch = fetch): WebhookTransport {
  return {
    async vet(url, allowPrivate) {
      return allowPrivate ? null : hostRefusal(new URL(url).hostname);
    },

    async post(request: OutboundRequest): Promise<OutboundResult> {
      if (!request.allowPrivate) {
        if (hostRefusal(new URL(request.url).hostname)) return { ok: false, error: REFUSED_DELIVERY };
      }
      try {
        const res = await fetcher(request.url, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(request.timeoutMs),
        });
        await res.body?.cancel();
        return { ok: true, status: res.status };
      } catch (err) {
        const e = err as { name?: string; message?: string };
        if (e.name === 'TimeoutError' || e.name === 'AbortError')
          return { ok: false, error: `no answer within ${request.timeoutMs / 1000} s` };
        // Attempts are kept and shown: a classified reason, not the runtime's message.
        return { ok: false, error: failureReason(err, 'request failed') };
      }
    },
  };
}
