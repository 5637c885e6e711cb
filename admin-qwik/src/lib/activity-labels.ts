import { CATALOGS, type CatalogDef } from './catalog';

/**
 * The activity log's action codes in words (`auth.login` → "Signed in").
 * The API keeps the codes (filters, exports); the screen shows these. A code
 * not listed here (a newer server) is spelled out from its parts.
 */
const LABELS: Record<string, string> = {
  'account.self': 'Changed own account',
  'apiKey.create': 'Created an API key',
  'apiKey.delete': 'Revoked an API key',
  'apiKey.use': 'Used an API key',
  'article.create': 'Created an article',
  'article.delete': 'Deleted an article',
  'article.update': 'Edited an article',
  'article.publish': 'Published an article',
  'article.unpublish': 'Unpublished an article',
  'article.schedule': 'Scheduled an article',
  'article.unschedule': 'Cancelled a schedule',
  'article.seo': 'Changed an article’s SEO',
  'article.preview.create': 'Made a preview link',
  'article.preview.revoke': 'Revoked a preview link',
  'auth.login': 'Signed in',
  'auth.login.failed': 'Failed sign-in',
  'auth.passwordReset.request': 'Asked for a password reset',
  'auth.passwordReset.confirm': 'Reset a password',
  'backup.export': 'Exported a backup',
  'backup.import': 'Imported a backup',
  'image.upload': 'Uploaded an image',
  'image.update': 'Edited an image',
  'image.link': 'Used a library image in an article',
  'image.delete': 'Deleted an image',
  'image.variants.clear': 'Cleared an image’s variants',
  'invitation.create': 'Invited someone',
  'invitation.accept': 'Accepted an invitation',
  'invitation.renew': 'Renewed an invitation',
  'invitation.cancel': 'Cancelled an invitation',
  'media.purge': 'Purged media',
  'media.purge.settings': 'Changed purge settings',
  'media.variants.clear': 'Cleared the variant cache',
  'update.apply': 'Applied an update',
  'update.check': 'Checked for updates',
  'update.download': 'Downloaded an update',
  'update.rollback': 'Rolled back an update',
  'user.register': 'Registered',
  'user.registration.cancel': 'Cancelled a registration',
  'user.verify': 'Verified an e-mail address',
  'user.verify.resend': 'Asked for a new verification e-mail',
  'user.update': 'Edited a user',
  'user.role': 'Changed a user’s role',
  'user.delete': 'Deleted a user',
  'user.password.change': 'Changed a password',
  'webhook.create': 'Created a webhook',
  'webhook.update': 'Edited a webhook',
  'webhook.delete': 'Deleted a webhook',
  'webhook.test': 'Sent a test webhook',
};

const CATALOGUE_VERBS: Record<string, string> = { create: 'Created', update: 'Edited', delete: 'Deleted' };

/** A catalogue's own three actions (`tag.create` → "Created a tag"), named by its entry's noun. */
function catalogueLabel(code: string): string | undefined {
  const [kind, verb, ...rest] = code.split('.');
  const def = (CATALOGS as Record<string, CatalogDef>)[kind ?? ''];
  const done = CATALOGUE_VERBS[verb ?? ''];
  if (!def || !done || rest.length > 0) return undefined;
  return `${done} ${/^[aeiou]/.test(def.noun) ? 'an' : 'a'} ${def.noun}`;
}

/**
 * An action code in words: the list above, a catalogue's create, update or
 * delete from its entry (lib/catalog.ts), else its parts spelled out
 * (`foo.barBaz` → "Foo bar baz").
 */
export function actionLabel(code: string): string {
  const known = LABELS[code] ?? catalogueLabel(code);
  if (known) return known;
  const words = code
    .split(/[._-]+/)
    .flatMap((part) => part.split(/(?=[A-Z])/))
    .filter(Boolean)
    .map((w) => w.toLowerCase())
    .join(' ');
  return words ? words[0]!.toUpperCase() + words.slice(1) : code;
}
