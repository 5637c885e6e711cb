import type { Mailer, MailMessage } from '../../ports/mailer.js';
import type { Logger } from '../../ports/runtime.js';

/**
 * The mailer for when SMTP_URL is unset (a first run, development): each
 * message becomes one JSON log line like every other, with the links it
 * holds pulled out so a verification link can be copied from the terminal:
 *
 *   {"level":"info","at":"…","message":"mail not sent (no SMTP_URL): logged",
 *    "to":"ada@example.com","subject":"Verify your e-mail address",
 *    "links":["http://localhost:8787/verify?code=…"],"text":"Hello Ada,\n…"}
 *
 * The JSON logger escapes what could forge a line or steer a terminal. The
 * HTML part is not logged: it says the same thing as the text part. A
 * deployed Worker refuses to start with this mailer unless told to allow it
 * (ALLOW_LOG_MAILER): the codes in these lines are as good as passwords.
 */
export function createLogMailer(logger: Logger): Mailer {
  return {
    // The log is always there to write to.
    async check() {},

    async send(message: MailMessage) {
      logger.info('mail not sent (no SMTP_URL): logged', {
        to: message.to,
        subject: message.subject,
        links: linksIn(message.text),
        text: message.text,
      });
    },
  };
}

/** The http(s) links of a text part, in order, without the sentence's punctuation after them. */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, ''));
}
