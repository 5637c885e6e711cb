import type { Context } from 'hono';
import type { AppEnv } from '../env.js';

/**
 * Headers prepared for a GET's answer as a plain record instead of Hono's
 * prepared `Headers`. On Node, @hono/node-server writes a Response whose
 * headers are a plain record as they are, while a `Headers` object (undici's,
 * which validates every name and value) is built, filled with the ~15
 * headers every answer gets, then sorted and copied out again: ~5% of an
 * uncached article read's CPU (docs/benchmarks.md).
 *
 * The layers that prepare headers for every answer (request log, CORS,
 * security headers on Node, a public read's CORP) write them here with
 * `prepareHeader`, in the same order they would call `c.header`. The public
 * read's answer takes the record (`takePlainHeaders`) and builds its
 * Response from it. Any other way to an answer goes through Hono's own
 * methods, which are wrapped on this context so that the record is first
 * handed to `c.header`, in order, exactly as if it had been set there all
 * along: then that answer and every later `c.header` behave as before.
 */
type Record_ = Record<string, string>;

const KEY = 'plainHeaders';

/** Hono's methods that build an answer from the prepared headers, or add to them. */
const BUILDERS = ['body', 'json', 'text', 'html', 'newResponse'] as const;

/** Starts the record for this request (before any other layer prepares a header). */
export function startPlainHeaders(c: Context<AppEnv>, first: Record_): void {
  c.set(KEY, first);
  const header = c.header;
  const flush = () => {
    const record = c.get(KEY);
    if (record === undefined) return;
    c.set(KEY, undefined);
    for (const name in record) header(name, record[name]);
  };
  c.header = ((name: string, value?: string, options?: { append?: boolean }) => {
    flush();
    return header(name, value, options);
  }) as typeof c.header;
  for (const method of BUILDERS) {
    const build = c[method] as (...args: unknown[]) => Response;
    (c as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      flush();
      return build(...args);
    };
  }
}

/** `c.header(name, value)`, or its place in the record while there is one; `append` as Hono's (for Vary). */
export function prepareHeader(c: Context<AppEnv>, name: string, value: string, append = false): void {
  const record = c.get(KEY);
  if (record === undefined) {
    c.header(name, value, append ? { append: true } : undefined);
    return;
  }
  const had = record[name];
  record[name] = append && had !== undefined ? `${had}, ${value}` : value;
}

/** Several at once, in order (the security headers). */
export function prepareHeaders(c: Context<AppEnv>, headers: Readonly<Record_>): void {
  const record = c.get(KEY);
  if (record === undefined) {
    for (const name in headers) c.header(name, headers[name]);
    return;
  }
  for (const name in headers) record[name] = headers[name]!;
}

/** The record, for an answer built from it; undefined once anything went through `c.header`. */
export const takePlainHeaders = (c: Context<AppEnv>): Readonly<Record_> | undefined => {
  const record = c.get(KEY);
  if (record !== undefined) c.set(KEY, undefined);
  return record;
};
