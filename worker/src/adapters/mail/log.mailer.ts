import type { Mailer, MailMessage } from '../../ports/mailer.js';

/**
 * The mailer for when SMTP_URL is unset (a first run, development): each
 * message goes to the log, readable enough to copy a verification link from.
 *
 *   mail to=ada@example.com subject="Verify your e-mail address"
 *   mail | Open this link to verify: http://localhost:8787/verify?code=…
 *   mail end
 *
 * Every value is escaped (control characters, escape sequences, bidi
 * overrides become `\xNN` / `\u{…}`), and each text line gets the `mail |`
 * prefix, so a crafted name or subject cannot forge or rewrite log lines.
 * The HTML part is not logged: it says the same thing as the text part.
 */
export function createLogMailer(write: (line: string) => void): Mailer {
  return {
    // The log is always there to write to.
    async check() {},

    async send(message: MailMessage) {
      write(`mail to=${escapeLogText(message.to)} subject="${escapeLogText(message.subject, true)}"`);
      for (const line of message.text.split(/\r\n|\r|\n/)) write(line ? `mail | ${escapeLogText(line)}` : 'mail |');
      write('mail end');
    },
  };
}

// C0 and C1 controls, DEL, and the invisible formatting characters that can
// reorder or hide text in a terminal (bidi embeddings, overrides, isolates).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/gu;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** One log-safe line: nothing in it can start a new line or move the cursor. */
export function escapeLogText(text: string, quoted = false): string {
  let out = text.replace(/\\/g, '\\\\');
  if (quoted) out = out.replace(/"/g, '\\"');
  out = out.replace(UNSAFE, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
  // Lone surrogates cannot be written to every sink intact; show where they were.
  return out.replace(LONE_SURROGATE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}
