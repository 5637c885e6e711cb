/**
 * Logged values come from clients (titles, e-mail addresses, file names).
 * Control characters, newlines and the Unicode line separators are written
 * as visible `\u….` text, so no value can forge a line in an export or a
 * terminal; strings are cut short and nesting is bounded so one entry stays small.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const MAX_STRING = 1000;
const MAX_DEPTH = 4;
const MAX_KEYS = 50;

export function escapeControls(text: string): string {
  const cut = text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…` : text;
  return cut.replace(CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function sanitizeValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return escapeControls(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean' || value === null) return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((v) => sanitizeValue(v, depth + 1));
  if (typeof value === 'object') {
    // A plain object without a prototype: no key (`__proto__` included) can reach one.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, MAX_KEYS)) {
      if (v !== undefined) out[escapeControls(k)] = sanitizeValue(v, depth + 1);
    }
    return out;
  }
  return null;
}

export function sanitizeDetails(details: Record<string, unknown> | undefined | null): Record<string, unknown> | null {
  if (!details) return null;
  const clean = sanitizeValue(details) as Record<string, unknown>;
  return Object.keys(clean).length === 0 ? null : { ...clean };
}
