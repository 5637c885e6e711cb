import { LogLevel, WorkerMailer } from 'worker-mailer';

/**
 * worker-mailer (pinned to 1.2.1 in package.json) stops the handshake when
 * the server advertises AUTH and no credentials were given ("smtp server
 * requires authentication, but no credentials found"). Many servers
 * advertise AUTH yet accept mail without it (relays on 587 for a trusted
 * network, development catchers), so with an SMTP_URL without credentials
 * every registration, invitation and reset was a 503.
 *
 * Without credentials we skip AUTH, as SMTP clients generally do: the server
 * still decides, and one that wants AUTH refuses MAIL FROM (530), which the
 * mailer reports as an authentication failure. With credentials nothing
 * changes. The library keeps auth() private, so this replaces it on the
 * prototype once, at import, and fails loudly if a new version moved it;
 * test/node/mail/smtp-mailer.test.ts and test/workers/smtp-mailer.test.ts
 * prove it against a real server that advertises AUTH.
 */
interface MailerInternals {
  credentials?: unknown;
  auth(): Promise<void>;
}

const prototype = WorkerMailer.prototype as unknown as MailerInternals;
const authenticate = prototype.auth;
if (typeof authenticate !== 'function') {
  throw new Error('worker-mailer no longer has auth(): review adapters/mail/worker-mailer-auth.ts before upgrading');
}
prototype.auth = function (this: MailerInternals) {
  return this.credentials ? authenticate.call(this) : Promise.resolve();
};

/** The patched client, for smtp.mailer.ts to import on first use. */
export { LogLevel, WorkerMailer };
