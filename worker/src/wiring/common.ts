import { createJoseTokenSigner } from '../adapters/auth/jose.token-signer.js';
import { createPbkdf2PasswordHasher } from '../adapters/auth/pbkdf2.password-hasher.js';
import { createLogMailer } from '../adapters/mail/log.mailer.js';
import { createSmtpMailer } from '../adapters/mail/smtp.mailer.js';
import { sha1Digest } from '../adapters/runtime/sha1.digest.js';
import { systemClock, uuidV7Ids } from '../adapters/runtime/system.runtime.js';
import type { Settings } from '../config/settings.js';
import type { Mailer } from '../ports/mailer.js';
import type { Logger } from '../ports/runtime.js';

/** Sessions last a week; a password reset or cancellation ends them sooner. */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** The pieces both targets wire the same way. */
export function commonDeps(settings: Settings, jwtSecret: string, logger: Logger) {
  const mailer: Mailer = settings.smtpUrl
    ? createSmtpMailer({ url: settings.smtpUrl, from: settings.mailFrom })
    : createLogMailer(logger);
  return {
    clock: systemClock,
    ids: uuidV7Ids,
    digest: sha1Digest,
    passwords: createPbkdf2PasswordHasher(),
    tokens: createJoseTokenSigner({
      secret: jwtSecret,
      lifetimeSeconds: SESSION_LIFETIME_SECONDS,
      now: systemClock.now,
    }),
    mailer,
  };
}
