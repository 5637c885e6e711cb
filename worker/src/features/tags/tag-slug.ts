import { DomainError } from '../../core/domain/errors.js';
import { TAG_SLUG_MAX } from './tags.schema.js';

/**
 * `Café Society` → `cafe-society`: accents dropped, anything but a-z and 0-9
 * becomes one hyphen, cut to the slug's length. A name with no latin letter
 * or digit ("日本語", "🚀") gives nothing to make a slug from: that is a 400
 * asking for one rather than an invented slug.
 */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, TAG_SLUG_MAX)
    .replace(/-+$/, '');
  if (slug === '') {
    throw new DomainError('invalid_request', 'slug cannot be made from this name: give a slug', [
      { path: 'slug', message: 'the name has no letters a-z or digits to make a slug from; give a slug' },
    ]);
  }
  return slug;
}
