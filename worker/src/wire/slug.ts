import * as z from 'zod';

/** An article's slug: lower-case `a-z0-9-`, 1..200 characters. */
export const ARTICLE_SLUG_MAX = 200;
const ARTICLE_SLUG = /^[a-z0-9-]+$/;

export const ArticleSlugSchema = z
  .string({ error: 'slug must be a string' })
  .min(1, 'slug must not be empty')
  .max(ARTICLE_SLUG_MAX, `slug must be at most ${ARTICLE_SLUG_MAX} characters`)
  .regex(ARTICLE_SLUG, 'slug must be lower-case letters a-z, digits and hyphens');

/** A catalogue entry's slug (authors, tags): lower-case words of `a-z0-9` joined by single hyphens, 1..100 characters. */
export const NAME_SLUG_MAX = 100;
const NAME_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const NameSlugSchema = z
  .string({ error: 'slug must be a string' })
  .min(1, 'slug must not be empty')
  .max(NAME_SLUG_MAX, `slug must be at most ${NAME_SLUG_MAX} characters`)
  .regex(NAME_SLUG, 'slug must be lower-case letters and digits separated by single hyphens');

/**
 * A slug from free text, the one slug maker of the server and the admin
 * (articles from titles, tags and authors from names): accents taken off
 * (NFKD, then the combining marks dropped), lower-cased, every run of
 * anything else one hyphen, none at either end, cut to `max` at a hyphen
 * where one is near. Text with no Latin letter or digit (`日本語`, `!!!`)
 * gives `fallback`: an article needs a slug whatever its title, a tag's
 * caller turns the empty slug into a 400 asking for one. Linear: one
 * normalisation and three regular expressions without nested quantifiers.
 */
export function slugify(text: string, max = ARTICLE_SLUG_MAX, fallback = 'article'): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  if (words === '') return fallback.slice(0, max);
  if (words.length <= max) return words;
  const cut = words.slice(0, max);
  const hyphen = cut.lastIndexOf('-');
  return hyphen > max * 0.6 ? cut.slice(0, hyphen) : cut.replace(/-$/, '');
}

/**
 * `base`, or `base-N` with the smallest N ≥ 2 that no slug in `taken` uses,
 * the base cut so that the whole stays within `max`.
 */
export function freeSlug(base: string, taken: ReadonlySet<string>, max = ARTICLE_SLUG_MAX): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, max - suffix.length).replace(/-$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
