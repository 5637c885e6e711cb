import * as z from 'zod';
import { CONTROL_CHARS, LONE_SURROGATE } from './text.js';

/** Ids are UUIDs (v7, made by the server). */
/** A SHA-256 as stored: 64 lower-case hex digits (an image's bytes, a redirect's key). */
export const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

export const IdSchema = z.uuid({ error: 'must be a UUID' });

/** An id in a path: a malformed one names nothing, so it is the same 404 as an unknown one. */
export const IdParamSchema = IdSchema.transform((id) => id.toLowerCase());

/** Instants leave the server as `Date.toISOString()`: UTC, milliseconds, `Z`. */
export const TimestampSchema = z.iso.datetime();

/** A display name: 1..200 characters after trimming, no control characters. */
export const nameSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(200, `${field} must be at most 200 characters`)
    .refine((t) => !CONTROL_CHARS.test(t), `${field} must not contain control characters`)
    .refine((t) => !LONE_SURROGATE.test(t), `${field} must be valid Unicode (no lone surrogates)`);

/** Free text up to 5,000 characters, or null. */
export const longTextSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(5000, `${field} must be at most 5,000 characters`)
    .refine((t) => !t.includes('\u0000'), `${field} must not contain NUL characters`)
    .refine((t) => !LONE_SURROGATE.test(t), `${field} must be valid Unicode (no lone surrogates)`)
    .nullable();

export function isHttpUrl(value: string): boolean {
  if (CONTROL_CHARS.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
