import { NAME_SLUG_MAX, slugify } from '../../wire/slug.js';
import { DomainError } from '../domain/errors.js';

/**
 * A catalogue item's slug made from its name, when a create gives none:
 * `Café Society` → `cafe-society`. A name with no Latin letter or digit
 * ("日本語", "🚀") gives nothing to make a slug from: that is a 400 asking
 * for one rather than an invented slug.
 */
export function slugFromName(name: string): string {
  const slug = slugify(name, NAME_SLUG_MAX, '');
  if (slug === '') {
    throw new DomainError('invalid_request', 'slug cannot be made from this name: give a slug', [
      { path: 'slug', message: 'the name has no letters a-z or digits to make a slug from; give a slug' },
    ]);
  }
  return slug;
}
