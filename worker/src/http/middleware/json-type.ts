import type { Context } from 'hono';
import type { AppEnv } from '../env.js';

/**
 * The media type of every JSON answer, as docs/api.md states it. Hono's
 * `c.json` says `application/json` alone; a client (or a proxy) that
 * guesses the encoding of a text body then need not guess.
 */
export const JSON_TYPE = 'application/json; charset=utf-8';

type HeaderRecord = Record<string, string | string[]>;

/**
 * Makes this request's `c.json` answer with JSON_TYPE unless the caller
 * names another type. Set up first (request-log.ts), so that every layer
 * after it (routes, errors, the not-found and method answers, the public
 * read cache's own `c.json`) builds on it.
 */
export function jsonWithCharset(c: Context<AppEnv>): void {
  const json = c.json as (object: unknown, arg?: unknown, headers?: HeaderRecord) => Response;
  c.json = ((object: unknown, arg?: unknown, headers?: HeaderRecord) =>
    json(object, arg, { 'Content-Type': JSON_TYPE, ...headers })) as typeof c.json;
}
