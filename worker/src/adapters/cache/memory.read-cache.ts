import type { KeptAnswer, ReadCache } from '../../ports/read-cache.js';

const encoder = new TextEncoder();

/** A bounded map in insertion order: the least recently used entry goes first. */
export function createMemoryReadCache(options: { maxEntries?: number; maxBytes?: number } = {}): ReadCache {
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024; // of UTF-8 bytes
  const entries = new Map<string, KeptAnswer>();
  let bytes = 0;

  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      // Refresh its place: the least recently used goes first.
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    },
    set(key, given) {
      // Kept as bytes, so that each hit writes them without encoding (ports/read-cache.ts).
      const entry = { ...given, body: encoder.encode(given.body) };
      if (entry.body.length > maxBytes / 8) return;
      while (entries.size >= maxEntries || bytes + entry.body.length > maxBytes) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        bytes -= entries.get(oldest.value)!.body.length;
        entries.delete(oldest.value);
      }
      entries.set(key, entry);
      bytes += entry.body.length;
    },
    invalidate() {
      entries.clear();
      bytes = 0;
    },
    size: () => entries.size,
  };
}
