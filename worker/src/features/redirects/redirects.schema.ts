import * as z from 'zod';
import { isHttpUrl, TimestampSchema } from '../../wire/common.schema.js';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../wire/text.js';

export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];
export const REDIRECT_MAX_LENGTH = 2000;

/**
 * `/old/` and `/old` are one redirect: trailing slashes go, but `/` stays
 * itself. All of them, so that normalising twice changes nothing (a lookup
 * normalises what a stored `from` already is).
 */
export const normalizeSitePath = (path: string): string => path.replace(/\/+$/, '') || '/';

/** One line of text a URL may hold: no whitespace, controls or lone surrogates (no database stores those unchanged). */
const urlText = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(REDIRECT_MAX_LENGTH, `${field} must be at most 2,000 characters`)
    .refine(
      (t) => !/\s/.test(t) && !CONTROL_CHARS.test(t),
      `${field} must not contain whitespace or control characters`,
    )
    .refine((t) => !LONE_SURROGATE.test(t), `${field} must be valid Unicode (no lone surrogates)`);

/**
 * A path on a site as a redirect's `from` (and a lookup's `path`): it starts
 * with `/` and holds no query or fragment, since a redirect matches the
 * path alone; normalised, compared exactly (case-sensitive).
 */
export const sitePathSchema = (field: string) =>
  urlText(field)
    .refine((t) => t.startsWith('/'), `${field} must be a path starting with /`)
    .refine((t) => !/[?#]/.test(t), `${field} must be a path without ? or #`)
    .transform(normalizeSitePath);

/**
 * Where a redirect goes: a path on the same site (query and fragment
 * allowed), or an absolute http(s) URL. `//host` and `/\host` are refused:
 * browsers read both as another origin, which a path must not reach.
 */
export const RedirectTargetSchema = urlText('to').refine(
  (t) => (t.startsWith('/') && !/^\/[/\\]/.test(t)) || isHttpUrl(t),
  'to must be a path starting with / (not //) or an absolute http(s) URL',
);

export const RedirectStatusSchema = z.literal(REDIRECT_STATUSES, {
  error: `status must be one of ${REDIRECT_STATUSES.join(', ')}`,
});

/** `status` left out is 301, a permanent move. */
export const CreateRedirectSchema = z.object({
  from: sitePathSchema('from'),
  to: RedirectTargetSchema,
  status: RedirectStatusSchema.optional().default(301),
});
export type CreateRedirectInput = z.output<typeof CreateRedirectSchema>;

export const UpdateRedirectSchema = z.object({
  from: sitePathSchema('from').optional(),
  to: RedirectTargetSchema.optional(),
  status: RedirectStatusSchema.optional(),
});
export type UpdateRedirectInput = z.output<typeof UpdateRedirectSchema>;

export const RedirectLookupQuerySchema = z.object({ path: sitePathSchema('path') });

export const RedirectSchema = z
  .object({
    id: z.uuid(),
    from: z.string(),
    to: z.string(),
    status: z.literal(REDIRECT_STATUSES),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Redirect' });
export type RedirectDto = z.output<typeof RedirectSchema>;
