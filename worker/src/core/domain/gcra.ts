/**
 * GCRA, shared by every rate limiter: given the stored theoretical arrival
 * time (ms, null for a new key), either the new one to store or how long
 * until the next request would fit.
 */
export function gcraNext(
  tatMs: number | null,
  rule: { limit: number; windowSeconds: number },
  nowMs: number,
): { tatMs: number } | { retryAfterMs: number } {
  const interval = (rule.windowSeconds * 1000) / rule.limit;
  const next = Math.max(tatMs ?? nowMs, nowMs) + interval;
  const over = next - nowMs - rule.windowSeconds * 1000;
  return over > 0 ? { retryAfterMs: over } : { tatMs: next };
}
